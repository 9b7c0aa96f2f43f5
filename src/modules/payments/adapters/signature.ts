import { Effect, Option, Redacted } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import Stripe from "stripe"
import type { AppConfigShape } from "../../../platform/config"
import { type GatewayEvent, InvalidWebhook } from "../ports"
import type { WebhookEndpoint } from "../webhook-endpoints"

/** How far from now a signature's timestamp may be, either way (Stripe's library default, 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/** The `t=` timestamp of a `Stripe-Signature` header (seconds), when it has a readable one. */
export const signatureTimestamp = (header: string): number | undefined => {
  const item = header
    .split(",")
    .map((part) => part.trim())
    .find((part) => part.startsWith("t="))
  const seconds = item === undefined ? NaN : Number(item.slice(2))
  return Number.isSafeInteger(seconds) ? seconds : undefined
}

/**
 * A signature dated more than the tolerance after `nowMs` (the library only refuses old ones): a
 * delivery signed for the future could be replayed for as long as its date is ahead.
 */
export const signedInTheFuture = (header: string, nowMs: number, toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS) => {
  const timestamp = signatureTimestamp(header)
  return timestamp !== undefined && timestamp - Math.floor(nowMs / 1000) > toleranceSeconds
}

/**
 * Verifies a webhook delivery with the stripe library's own helper (HMAC-SHA256 of `timestamp.body`,
 * refused when older than 300 s) and refuses a timestamp more than 300 s ahead as well, then checks
 * it is an event. Both gateways use it: the sandbox signs its events exactly as Stripe does.
 */
export const verifyEvent = (
  secret: Option.Option<string>,
  rawBody: Uint8Array | string,
  signatureHeader: string | undefined,
  secretVariable = "STRIPE_WEBHOOK_SECRET"
): Effect.Effect<GatewayEvent, InvalidWebhook> =>
  Effect.suspend(() => {
    if (Option.isNone(secret)) return Effect.fail(new InvalidWebhook({ reason: `no webhook secret is configured (${secretVariable})` }))
    if (signatureHeader === undefined || signatureHeader.trim() === "")
      return Effect.fail(new InvalidWebhook({ reason: "missing Stripe-Signature header" }))
    const receivedAt = Date.now()
    return Effect.try({
      try: () =>
        Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret.value, WEBHOOK_TOLERANCE_SECONDS, undefined, receivedAt) as unknown,
      catch: (error) => new InvalidWebhook({ reason: (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim() })
    }).pipe(
      Effect.filterOrFail(
        () => !signedInTheFuture(signatureHeader, receivedAt),
        () => new InvalidWebhook({ reason: "Timestamp outside the tolerance zone (in the future)" })
      ),
      Effect.flatMap((event) => {
        const e = event as {
          id?: unknown
          type?: unknown
          created?: unknown
          api_version?: unknown
          account?: unknown
          data?: { object?: unknown }
        } | null
        return e !== null &&
          typeof e === "object" &&
          typeof e.id === "string" &&
          e.id !== "" &&
          typeof e.type === "string" &&
          typeof e.created === "number" &&
          Number.isFinite(e.created)
          ? Effect.succeed({
              id: e.id,
              type: e.type,
              created: new Date(e.created * 1000),
              apiVersion: typeof e.api_version === "string" ? e.api_version : null,
              account: typeof e.account === "string" && e.account !== "" ? e.account : null,
              object: e.data?.object
            })
          : Effect.fail(new InvalidWebhook({ reason: "the signed body is not an event" }))
      })
    )
  })

/** Signs a payload as Stripe does (the `Stripe-Signature` header value). */
export const signPayload = (payload: string, secret: string, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) })

const sandboxSecretFiles: Readonly<Record<WebhookEndpoint, string>> = {
  platform: "sandbox-webhook-secret",
  connect: "sandbox-connect-webhook-secret"
}

/**
 * The signing secret of one endpoint: STRIPE_WEBHOOK_SECRET (platform events) or
 * STRIPE_CONNECT_WEBHOOK_SECRET (connected accounts' events); in sandbox mode without it, a secret
 * generated once into DATA_DIR (the sandbox signs its own events with it).
 */
export const webhookSecretOf = (config: AppConfigShape, endpoint: WebhookEndpoint = "platform"): Option.Option<string> => {
  const configured = endpoint === "platform" ? config.stripeWebhookSecret : config.stripeConnectWebhookSecret
  if (Option.isSome(configured)) return Option.some(Redacted.value(configured.value))
  if (config.paymentsMode !== "sandbox") return Option.none()
  const file = path.resolve(config.dataDir, sandboxSecretFiles[endpoint])
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
