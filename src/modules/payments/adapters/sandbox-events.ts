import { Clock, Effect, Option, Schedule } from "effect"
import * as crypto from "node:crypto"
import type { AppConfigShape } from "../../../platform/config"
import { type WebhookEndpoint, webhookEndpointOf, webhookPaths } from "../webhook-endpoints"
import { signPayload, webhookSecretOf } from "./signature"

/** A Stripe-shaped event type and its `data.object`. */
export interface SandboxEvent {
  readonly type: string
  readonly object: Readonly<Record<string, unknown>>
}

/**
 * How the sandbox plays Stripe's webhooks: each event is posted to the app's own listener of its
 * endpoint (connected accounts' events to the connect endpoint, the others to the platform's), signed
 * with that endpoint's secret (configured or generated). Delivery is best effort: a
 * failure is logged; with `retries`, an event the app did not accept (no answer, or not 2xx) is sent
 * again with backoff, under the same event id, as Stripe does.
 */
export const sandboxEventSender = (config: AppConfigShape) => {
  const webhookSecrets = { platform: webhookSecretOf(config, "platform"), connect: webhookSecretOf(config, "connect") }
  // The app's own listener, whatever PUBLIC_URL says (it may be a proxy the process cannot reach).
  const loopback = ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host
  const origin = `http://${loopback.includes(":") ? `[${loopback}]` : loopback}:${config.port}`
  const webhookUrls: Record<WebhookEndpoint, string> = { platform: `${origin}${webhookPaths.platform}`, connect: `${origin}${webhookPaths.connect}` }

  /** One attempt; signed at sending time (the signature's timestamp must be fresh). */
  const post = (webhookUrl: string, payload: string, secret: string, type: string) =>
    Effect.tryPromise(async () => {
      const response = await fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signPayload(payload, secret) },
        body: payload,
        signal: AbortSignal.timeout(5_000)
      })
      await response.arrayBuffer()
      if (response.status >= 300) throw new Error(`${webhookUrl} answered ${response.status} to ${type}`)
    })

  const deliver = ({ object, type }: SandboxEvent, retries = 0) =>
    Effect.gen(function*() {
      const endpoint = webhookEndpointOf(type)
      const webhookSecret = webhookSecrets[endpoint]
      const webhookUrl = webhookUrls[endpoint]
      if (Option.isNone(webhookSecret)) return
      const payload = JSON.stringify({
        id: `evt_sandbox_${crypto.randomBytes(12).toString("hex")}`,
        object: "event",
        api_version: "sandbox",
        type,
        created: Math.floor((yield* Clock.currentTimeMillis) / 1000),
        livemode: false,
        data: { object }
      })
      yield* post(webhookUrl, payload, webhookSecret.value, type).pipe(
        Effect.retry(Schedule.intersect(Schedule.exponential("1 second"), Schedule.recurs(retries))),
        Effect.catchAll((error) => Effect.logWarning(`sandbox: ${type} not delivered to ${webhookUrl}: ${error.error instanceof Error ? error.error.message : String(error.error)}`))
      )
    })

  /** Delivers events one after the other, in order (each waits for the app's answer, or gives up). */
  const deliverAll = (events: ReadonlyArray<SandboxEvent>, retries = 0) => Effect.forEach(events, (event) => deliver(event, retries), { discard: true })

  return { webhookUrls, deliver, deliverAll }
}
