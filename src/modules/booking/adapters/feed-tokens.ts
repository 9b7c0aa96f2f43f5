import { Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import { derivedKey } from "../../../platform/app-secret"
import { CalendarFeedTokens } from "../ports"

const sha256 = (token: string) => crypto.createHash("sha256").update(token).digest("hex")

/**
 * A feed's URL token is the HMAC-SHA256 of `calendar-feed:<provider>:<nonce>` under a key derived from
 * the app secret for this purpose only: the server can write the URL again from the stored nonce,
 * while the table keeps only the token's SHA-256 (migration 0037).
 */
export const HmacCalendarFeedTokensLive = Layer.effect(
  CalendarFeedTokens,
  Effect.map(derivedKey("calendar-feed"), (secret) => {
    const key = crypto.createSecretKey(secret)
    const tokenOf = (providerId: string, nonce: string) =>
      crypto.createHmac("sha256", key).update(`calendar-feed:${providerId}:${nonce}`).digest("base64url")
    return CalendarFeedTokens.of({
      newKey: (providerId) => {
        const nonce = crypto.randomBytes(18).toString("base64url")
        return { nonce, tokenHash: sha256(tokenOf(providerId, nonce)) }
      },
      tokenOf,
      hashOf: sha256
    })
  })
)
