import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { derivedKey } from "../../../platform/app-secret"
import { isUuid } from "../../../platform/ids"
import { UnsubscribeTokens } from "../ports"

/**
 * `<account id>.<HMAC-SHA256 of it>` under a key derived from the app secret for this purpose only.
 * It does not expire: an unsubscribe link has to work from an old mail, and it can only turn mail off.
 */
export const HmacUnsubscribeTokensLive = Layer.effect(
  UnsubscribeTokens,
  Effect.map(derivedKey("unsubscribe"), (secret) => {
    const key = crypto.createSecretKey(secret)
    const mac = (userId: string) => crypto.createHmac("sha256", key).update(`unsubscribe:${userId}`).digest()
    return UnsubscribeTokens.of({
      sign: (userId) => `${userId}.${mac(userId).toString("base64url")}`,
      verify: (token) => {
        const dot = token.indexOf(".")
        const userId = token.slice(0, dot)
        if (dot < 0 || !isUuid(userId)) return Option.none()
        const given = Buffer.from(token.slice(dot + 1), "base64url")
        const expected = mac(userId)
        return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? Option.some(userId) : Option.none()
      }
    })
  })
)
