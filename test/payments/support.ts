import { type AccountRole, freshUser as anyFreshUser } from "../support/accounts"
import { openAllTheTime } from "../support/availability"
import { Effect, Layer, Option, Redacted } from "effect"
import * as http from "node:http"
import * as net from "node:net"
import Stripe from "stripe"
import { verifyEvent } from "../../src/modules/payments/adapters/signature"
import { type ChargeEvent, ChargeEventSink } from "../../src/modules/payments/ports"
import { type WebhookEndpoint, webhookEndpointOf, webhookPaths } from "../../src/modules/payments/webhook-endpoints"
import type { AppConfigShape } from "../../src/platform/config"
import { httpClient } from "../support/http"
import { freePort, type TestServer } from "../support/server"

export const WEBHOOK_SECRET = "whsec_test_payments_0123456789"
/** The connected-accounts endpoint's own secret (STRIPE_CONNECT_WEBHOOK_SECRET). */
export const CONNECT_WEBHOOK_SECRET = "whsec_test_connect_9876543210"

/** The endpoint an event (JSON) is delivered to, as Stripe routes it. */
export const endpointOfPayload = (payload: string): WebhookEndpoint => {
  try {
    return webhookEndpointOf(String(JSON.parse(payload)?.type))
  } catch {
    return "platform"
  }
}

/**
 * The settings of a server on a port chosen here, so that PUBLIC_URL is its own address and the links
 * it hands out (return URLs, sandbox pages) can be followed as they are; the known webhook secrets by
 * default. For `httpWorld({ config: () => paymentsServerSettings() })`.
 */
export const paymentsServerSettings = async (overrides: Partial<AppConfigShape> = {}): Promise<Partial<AppConfigShape>> => {
  const port = await freePort()
  return {
    port,
    publicUrl: `http://127.0.0.1:${port}`,
    stripeWebhookSecret: Option.some(Redacted.make(WEBHOOK_SECRET)),
    stripeConnectWebhookSecret: Option.some(Redacted.make(CONNECT_WEBHOOK_SECRET)),
    ...overrides
  }
}

type Api = ReturnType<typeof httpClient>

let counter = 0
/** A fresh verified account with the given role (a provider by default), logged in, with no payment account. */
export const freshUser = async (server: TestServer, api: Api, role: AccountRole = "PROVIDER") => {
  const account = await anyFreshUser(server, api, role)
  // A provider is open at any time (support/availability.ts): tests pick their booking times freely.
  if (role === "PROVIDER") await server.run(openAllTheTime(account.user.id))
  return account
}

export const accountUpdated = (input: {
  readonly id?: string
  readonly accountId: string
  /** Seconds since the epoch. */
  readonly created: number
  readonly charges: boolean
  readonly payouts?: boolean
  readonly details?: boolean
  readonly country?: string
}) =>
  JSON.stringify({
    id: input.id ?? `evt_test_${Math.random().toString(36).slice(2)}${(++counter).toString(36)}`,
    object: "event",
    type: "account.updated",
    created: input.created,
    livemode: false,
    data: {
      object: {
        id: input.accountId,
        object: "account",
        country: input.country ?? "CA",
        charges_enabled: input.charges,
        payouts_enabled: input.payouts ?? input.charges,
        details_submitted: input.details ?? input.charges
      }
    }
  })

/** Signs with the stripe library's own helper (by default with the secret of the event's endpoint). */
export const sign = (payload: string, secret?: string, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: secret ?? (endpointOfPayload(payload) === "connect" ? CONNECT_WEBHOOK_SECRET : WEBHOOK_SECRET),
    ...(timestamp === undefined ? {} : { timestamp })
  })

/** Posts an event to an endpoint (by default the one Stripe would deliver it to). */
export const deliver = (api: Api, payload: string, signature: string | undefined, endpoint: WebhookEndpoint = endpointOfPayload(payload)) =>
  api.call("POST", webhookPaths[endpoint], { raw: payload, headers: signature === undefined ? {} : { "stripe-signature": signature } })

export const nowSeconds = () => Math.floor(Date.now() / 1000)

// ---- Charges ------------------------------------------------------------------------------------

/** A Stripe-shaped event (`data.object` as given), as JSON. */
export const stripeEvent = (
  type: string,
  object: Record<string, unknown>,
  options: { readonly id?: string; readonly created?: number } = {}
) =>
  JSON.stringify({
    id: options.id ?? `evt_test_${Math.random().toString(36).slice(2)}${(++counter).toString(36)}`,
    object: "event",
    type,
    created: options.created ?? nowSeconds(),
    livemode: false,
    data: { object }
  })

/** A ChargeEventSink that records what it is given (for tests over payments' own layers). */
export const recordingSink = () => {
  const applied: Array<ChargeEvent> = []
  return { applied, layer: Layer.succeed(ChargeEventSink, { apply: (event) => Effect.sync(() => void applied.push(event)) }) }
}

/** Waits, in real time, until `check` holds (events are delivered over HTTP, some in the background). */
export const eventually = async (check: () => boolean, what = "condition", timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export interface RecordedEvent {
  /** The endpoint it was delivered to (verified with that endpoint's secret). */
  readonly endpoint: WebhookEndpoint
  readonly id: string
  readonly type: string
  readonly created: number
  readonly object: any
}

/**
 * Stands where the app's webhook endpoint would be: records the events delivered to it whose
 * signature verifies with `secret` (with the app's own verifier); answers 400 to the others.
 */
export const startWebhookRecorder = async (secret: string, connectSecret?: string) => {
  const events: Array<RecordedEvent> = []
  let refused = 0
  /** Deliveries still to answer 500 (as an app whose processing failed), and the ids they carried. */
  let failing = 0
  const failed: Array<string> = []
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const endpoint = req.url === webhookPaths.connect ? "connect" : "platform"
      const endpointSecret = endpoint === "connect" ? Option.fromNullable(connectSecret) : Option.some(secret)
      const verified = Effect.runSync(
        Effect.either(verifyEvent(endpointSecret, body, req.headers["stripe-signature"] as string | undefined))
      )
      if (req.url !== webhookPaths[endpoint] || verified._tag === "Left") {
        refused++
        res.writeHead(400).end()
        return
      }
      const event = JSON.parse(body)
      if (failing > 0) {
        failing--
        failed.push(event.id)
        res.writeHead(500).end()
        return
      }
      events.push({ endpoint, id: event.id, type: event.type, created: event.created, object: event.data.object })
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    events,
    refused: () => refused,
    failNext: (count: number) => {
      failing = count
    },
    failed,
    ofType: (type: string) => events.filter((event) => event.type === type),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
export type WebhookRecorder = Awaited<ReturnType<typeof startWebhookRecorder>>
