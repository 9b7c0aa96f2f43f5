import { Clock, Effect, Layer, Option, Schedule, Schema } from "effect"
import { STRIPE_API_VERSION } from "../stripe-version"
import * as crypto from "node:crypto"
import { AppConfig, type AppConfigShape } from "../../../platform/config"
import { JobQueue, type JobQueueShape } from "../../../platform/jobs"
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
  const webhookUrls: Record<WebhookEndpoint, string> = {
    platform: `${origin}${webhookPaths.platform}`,
    connect: `${origin}${webhookPaths.connect}`
  }

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

  /** One attempt of a stamped event (a failure is the app not accepting it). */
  const attempt = (event: StampedEvent) =>
    Effect.gen(function* () {
      const endpoint = webhookEndpointOf(event.type)
      const webhookSecret = webhookSecrets[endpoint]
      if (Option.isNone(webhookSecret)) return
      const payload = JSON.stringify({
        id: event.id,
        object: "event",
        // The sandbox plays an endpoint created with the app's pinned version.
        api_version: STRIPE_API_VERSION,
        // As Stripe: a connected account's event names that account.
        ...(endpoint === "connect" ? { account: (event.object as { readonly id?: string }).id } : {}),
        type: event.type,
        created: event.created,
        livemode: false,
        data: { object: event.object }
      })
      yield* post(webhookUrls[endpoint], payload, webhookSecret.value, event.type)
      remember(event.id)
    })

  const deliver = (event: SandboxEvent | StampedEvent, retries = 0) =>
    Effect.gen(function* () {
      const stamped = "id" in event ? event : yield* stamp(event)
      yield* attempt(stamped).pipe(
        Effect.retry(Schedule.intersect(Schedule.exponential("1 second"), Schedule.recurs(retries))),
        Effect.catchAll((error) =>
          Effect.logWarning(
            `sandbox: ${stamped.type} not delivered to ${webhookUrls[webhookEndpointOf(stamped.type)]}: ${error.error instanceof Error ? error.error.message : String(error.error)}`
          )
        )
      )
    })

  /** Delivers events one after the other, in order (each waits for the app's answer, or gives up). */
  const deliverAll = (events: ReadonlyArray<SandboxEvent | StampedEvent>, retries = 0) =>
    Effect.forEach(events, (event) => deliver(event, retries), { discard: true })

  /**
   * The durable part of delivery, as Stripe retries for days: a job per event, sent inside the
   * transaction that made the event (so it exists exactly when the change does, whatever happens to
   * the process afterwards), that delivers it again after the in-process attempts, with backoff,
   * until the app accepts it. One the app already accepted is not sent again.
   */
  const redeliverLater = (jobs: JobQueueShape, events: ReadonlyArray<StampedEvent>) =>
    Effect.forEach(events, (event) => jobs.send(SANDBOX_DELIVERY_QUEUE, { event }, { ...REDELIVERY, singletonKey: event.id }), {
      discard: true
    })

  /** The redelivery job's work: fails (so the queue retries it) while the app does not accept the event. */
  const redeliver = (data: Record<string, unknown>) =>
    Effect.flatMap(Schema.decodeUnknown(RedeliveryJob)(data), ({ event }) =>
      delivered.has(event.id)
        ? Effect.void
        : attempt(event).pipe(
            Effect.tapError(() => Effect.logWarning(`sandbox: ${event.type} (${event.id}) still not accepted, retried later`))
          )
    )

  return { webhookUrls, deliver, deliverAll, redeliverLater, redeliver }
}

/** Events this process saw accepted (recent ones, whichever sender delivered them): a redelivery job finds them done. */
const delivered = new Set<string>()
const remember = (id: string) => {
  delivered.add(id)
  if (delivered.size > 10_000) delivered.delete(delivered.values().next().value!)
}

/** The worker of the sandbox's redeliveries (sandbox mode only), while the scope is open. */
export const SandboxDeliveryJobsLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.paymentsMode !== "sandbox") return
    const jobs = yield* JobQueue
    yield* jobs.work(SANDBOX_DELIVERY_QUEUE, sandboxEventSender(config).redeliver)
  })
)

/** An event with its identity: the same id and creation time on every delivery. */
export interface StampedEvent extends SandboxEvent {
  readonly id: string
  /** Seconds since the epoch. */
  readonly created: number
}

export const stamp = (event: SandboxEvent): Effect.Effect<StampedEvent> =>
  Effect.map(Clock.currentTimeMillis, (now) => ({
    ...event,
    id: `evt_sandbox_${crypto.randomBytes(12).toString("hex")}`,
    created: Math.floor(now / 1000)
  }))

/** The queue of the sandbox's durable webhook redeliveries. */
export const SANDBOX_DELIVERY_QUEUE = "sandbox-webhook-delivery"

/**
 * First redelivery 90 s after the event (the in-process attempts, about a minute, are over by then),
 * then 12 more spaced 1, 2, 4... minutes apart: about three days in all, as Stripe.
 */
const REDELIVERY = { startAfterSeconds: 90, retryLimit: 12, retryDelaySeconds: 60, retryBackoff: true } as const

const RedeliveryJob = Schema.Struct({
  event: Schema.Struct({
    id: Schema.String,
    type: Schema.String,
    created: Schema.Number,
    object: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  })
})
