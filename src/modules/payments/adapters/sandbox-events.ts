import { Clock, Effect, Option, Schedule } from "effect"
import * as crypto from "node:crypto"
import type { AppConfigShape } from "../../../platform/config"
import { signPayload, webhookSecretOf } from "./signature"

/** A Stripe-shaped event type and its `data.object`. */
export interface SandboxEvent {
  readonly type: string
  readonly object: Readonly<Record<string, unknown>>
}

/**
 * How the sandbox plays Stripe's webhooks: each event is posted, signed with the webhook secret the
 * app verifies (configured or generated), to the app's own listener. Delivery is best effort: a
 * failure is logged; with `retries`, an event the app did not accept (no answer, or not 2xx) is sent
 * again with backoff, under the same event id, as Stripe does.
 */
export const sandboxEventSender = (config: AppConfigShape) => {
  const webhookSecret = webhookSecretOf(config)
  // The app's own listener, whatever PUBLIC_URL says (it may be a proxy the process cannot reach).
  const loopback = ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host
  const webhookUrl = `http://${loopback.includes(":") ? `[${loopback}]` : loopback}:${config.port}/api/payments/webhook`

  /** One attempt; signed at sending time (the signature's timestamp must be fresh). */
  const post = (payload: string, secret: string, type: string) =>
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
      yield* post(payload, webhookSecret.value, type).pipe(
        Effect.retry(Schedule.intersect(Schedule.exponential("1 second"), Schedule.recurs(retries))),
        Effect.catchAll((error) => Effect.logWarning(`sandbox: ${type} not delivered to ${webhookUrl}: ${error.error instanceof Error ? error.error.message : String(error.error)}`))
      )
    })

  /** Delivers events one after the other, in order (each waits for the app's answer, or gives up). */
  const deliverAll = (events: ReadonlyArray<SandboxEvent>, retries = 0) => Effect.forEach(events, (event) => deliver(event, retries), { discard: true })

  return { webhookUrl, deliver, deliverAll }
}
