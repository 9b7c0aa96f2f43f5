import { Effect, Option, Redacted } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import Stripe from "stripe"
import type { AppConfigShape } from "../../../platform/config"
import { type GatewayEvent, InvalidWebhook } from "../ports"

/**
 * Verifies a webhook delivery with the stripe library's own helper (HMAC-SHA256 of `timestamp.body`,
 * refused after the library's default tolerance of 300 s), then checks it is an event. Both gateways
 * use it: the sandbox signs its events exactly as Stripe does.
 */
export const verifyEvent = (
  secret: Option.Option<string>,
  rawBody: Uint8Array | string,
  signatureHeader: string | undefined
): Effect.Effect<GatewayEvent, InvalidWebhook> =>
  Effect.suspend(() => {
    if (Option.isNone(secret)) return Effect.fail(new InvalidWebhook({ reason: "no webhook secret is configured (STRIPE_WEBHOOK_SECRET)" }))
    if (signatureHeader === undefined || signatureHeader.trim() === "") return Effect.fail(new InvalidWebhook({ reason: "missing Stripe-Signature header" }))
    return Effect.try({
      try: () => Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret.value) as unknown,
      catch: (error) => new InvalidWebhook({ reason: (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim() })
    }).pipe(
      Effect.flatMap((event) => {
        const e = event as { id?: unknown; type?: unknown; created?: unknown; data?: { object?: unknown } } | null
        return e !== null && typeof e === "object" && typeof e.id === "string" && e.id !== "" && typeof e.type === "string" &&
            typeof e.created === "number" && Number.isFinite(e.created)
          ? Effect.succeed({ id: e.id, type: e.type, created: new Date(e.created * 1000), object: e.data?.object })
          : Effect.fail(new InvalidWebhook({ reason: "the signed body is not an event" }))
      })
    )
  })

/** Signs a payload as Stripe does (the `Stripe-Signature` header value). */
export const signPayload = (payload: string, secret: string, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) })

/**
 * STRIPE_WEBHOOK_SECRET; in sandbox mode without it, a secret generated once into
 * DATA_DIR/sandbox-webhook-secret (the sandbox signs its own events with it).
 */
export const webhookSecretOf = (config: AppConfigShape): Option.Option<string> => {
  if (Option.isSome(config.stripeWebhookSecret)) return Option.some(Redacted.value(config.stripeWebhookSecret.value))
  if (config.paymentsMode !== "sandbox") return Option.none()
  const file = path.resolve(config.dataDir, "sandbox-webhook-secret")
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    try {
      fs.writeFileSync(file, `whsec_sandbox_${crypto.randomBytes(24).toString("base64url")}`, { mode: 0o600, flag: "wx" })
    } catch (error) {
      // Another process wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
  }
  return Option.some(fs.readFileSync(file, "utf8").trim())
}
