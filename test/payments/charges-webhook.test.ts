import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Cause, Effect, Exit, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import * as crypto from "node:crypto"
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sandboxCheckoutRoutes } from "../../src/modules/payments/adapters/sandbox/checkout-page"
import { SandboxChargeGatewayLive, SandboxCheckoutLive } from "../../src/modules/payments/adapters/charges-sandbox"
import { PaymentsMemoryAdapters } from "../../src/modules/payments/adapters/memory"
import { PaymentsPostgresAdapters } from "../../src/modules/payments/adapters/postgres"
import { SandboxGatewayLive } from "../../src/modules/payments/adapters/sandbox"
import { signPayload } from "../../src/modules/payments/adapters/signature"
import {
  type ChargeEvent,
  ChargeEventSink,
  ChargeGateway,
  type CheckoutRequest,
  SandboxChargeStore
} from "../../src/modules/payments/ports"
import { PaymentWebhooks, PaymentWebhooksLive } from "../../src/modules/payments/webhooks"
import { AppConfigOf } from "../../src/platform/config"
import { type BadRequest, httpStatusOf } from "../../src/platform/errors"
import { InMemoryJobQueueLive } from "../../src/platform/jobs"
import { runMigrations } from "../../src/platform/migrations"
import { NoTransaction, SqlTransactional } from "../../src/platform/transaction"
import { freshTestDatabase } from "../support/database"
import type { RuntimeOf } from "../support/layers"
import { freePort } from "../support/server"
import { nowSeconds, recordingSink, stripeEvent, WEBHOOK_SECRET } from "./support"
import { scratchDir } from "../support/scratch"

const DAY_MS = 24 * 3600 * 1000
const config = (overrides: Parameters<typeof AppConfigOf>[0] = {}) =>
  AppConfigOf({
    paymentsMode: "sandbox",
    stripeWebhookSecret: Option.some(Redacted.make(WEBHOOK_SECRET)),
    dataDir: scratchDir("charge-webhook"),
    ...overrides
  })
const quiet = Logger.minimumLogLevel(LogLevel.None)

/** Signed with the stripe library's own helper, as Stripe (and the sandbox) sign. */
const signed = (payload: string) => signPayload(payload, WEBHOOK_SECRET)

const intent = (bookingId: string | undefined, fields: Record<string, unknown>) => ({
  id: `pi_${crypto.randomBytes(6).toString("hex")}`,
  object: "payment_intent",
  amount: 12_000,
  currency: "cad",
  capture_method: "manual",
  metadata: bookingId === undefined ? {} : { bookingId },
  // Fields the handler does not read are ignored.
  shipping: null,
  automatic_payment_methods: { enabled: false },
  ...fields
})

// ---- The webhook's charge handlers over the module's own layers, with a recording sink ----------------

const kinds = ["memory", "pglite"] as const

/** PaymentWebhooks on the sandbox gateways, its charge events going to `sink` (the stores are provided below). */
const webhooksWith = (sink: Layer.Layer<ChargeEventSink>) =>
  PaymentWebhooksLive.pipe(
    Layer.provide(sink),
    Layer.provide(SandboxGatewayLive),
    Layer.provide(SandboxChargeGatewayLive),
    Layer.provide(InMemoryJobQueueLive)
  )
const webhooksInMemory = (sink: Layer.Layer<ChargeEventSink>) =>
  webhooksWith(sink).pipe(
    Layer.provideMerge(Layer.merge(PaymentsMemoryAdapters, NoTransaction)),
    Layer.provide(config()),
    Layer.provide(quiet)
  )
const webhooksOnPglite = (sink: Layer.Layer<ChargeEventSink>) =>
  webhooksWith(sink).pipe(
    Layer.provideMerge(
      Layer.mergeAll(PaymentsPostgresAdapters, SqlTransactional, Layer.effectDiscard(Effect.orDie(runMigrations))).pipe(
        Layer.provideMerge(freshTestDatabase("pglite"))
      )
    ),
    Layer.provide(config()),
    Layer.provide(quiet)
  )
/** What both stacks provide: the tests' effects run on it. */
type Webhooks = ReturnType<typeof webhooksInMemory> | ReturnType<typeof webhooksOnPglite>

describe.each(kinds)("charge events through PaymentWebhooks (%s)", (kind) => {
  const sink = recordingSink()
  /** A sink failure rolls the delivery back (pglite: the event id is not kept, the gateway's retry applies it). */
  let failNextApply = false
  let runtime: RuntimeOf<Webhooks>
  /** The same runtime on PGlite (undefined in memory), for reading the tables. */
  let pglite: RuntimeOf<ReturnType<typeof webhooksOnPglite>> | undefined
  const receive = (payload: string, signature: string | undefined) =>
    runtime.runPromiseExit(Effect.flatMap(PaymentWebhooks, (w) => w.receive("platform", payload, signature)))
  const deliver = async (payload: string) => {
    const exit = await receive(payload, signed(payload))
    if (Exit.isFailure(exit)) throw new Error(`delivery failed: ${Cause.pretty(exit.cause)}`)
    return exit.value
  }
  /** What the sink received for one delivery. */
  const applied = async (payload: string) => {
    const before = sink.applied.length
    await deliver(payload)
    return sink.applied.slice(before)
  }

  beforeAll(async () => {
    const failingOnce = Layer.succeed(ChargeEventSink, {
      apply: (event: ChargeEvent) =>
        failNextApply
          ? Effect.sync(() => (failNextApply = false)).pipe(Effect.zipRight(Effect.dieMessage("sink down")))
          : Effect.sync(() => void sink.applied.push(event))
    })
    if (kind === "memory") runtime = ManagedRuntime.make(webhooksInMemory(failingOnce))
    else runtime = pglite = ManagedRuntime.make(webhooksOnPglite(failingOnce))
    await runtime.runPromise(Effect.void)
  })
  afterAll(() => runtime?.dispose())

  /** A card in the sandbox (the gateway these tests run over), attached to `customerId` or to nobody. */
  const sandboxCard = (paymentMethodId: string, customerId: string | null, customers: ReadonlyArray<string> = []) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const store = yield* SandboxChargeStore
        for (const id of [...customers, ...(customerId ? [customerId] : [])]) yield* store.saveCustomer({ id, email: `${id}@example.com` })
        yield* store.savePaymentMethod({
          id: paymentMethodId,
          customerId,
          brand: "visa",
          last4: "4242",
          expMonth: 12,
          expYear: 2040,
          behaviour: "succeeds"
        })
      })
    )
  /**
   * The intent an event names, held at the sandbox (the gateway the webhook retrieves it from, its
   * charge expanded): its card's `capture_before` is `captureBefore` (seconds), or none.
   */
  const heldAtGateway = (object: { id: string; metadata: { bookingId?: string } }, captureBefore: number | null) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const store = yield* SandboxChargeStore
        const pm = `pm_${crypto.randomBytes(4).toString("hex")}`
        yield* store.savePaymentMethod({
          id: pm,
          customerId: null,
          brand: "mastercard",
          last4: "4444",
          expMonth: 12,
          expYear: 2040,
          behaviour: "succeeds"
        })
        yield* store.saveIntent({
          id: object.id,
          bookingId: object.metadata.bookingId ?? "",
          amountMinor: 12_000,
          currency: "cad",
          status: "requires_capture",
          amountCapturable: 12_000,
          amountReceived: 0,
          amountRefunded: 0,
          applicationFeeMinor: 600,
          destinationAccountId: "acct_sandbox_x",
          customerId: null,
          paymentMethodId: pm,
          chargeId: `ch_${object.id}`,
          captureBefore: captureBefore === null ? null : new Date(captureBefore * 1000),
          offSession: false,
          extendedAuthorization: captureBefore === null ? null : "enabled",
          lastErrorCode: null,
          lastDeclineCode: null,
          createdAt: new Date()
        })
      })
    )
  const attachedTo = (paymentMethodId: string) =>
    runtime.runPromise(
      Effect.map(
        Effect.flatMap(SandboxChargeStore, (store) => store.findPaymentMethod(paymentMethodId)),
        (found) => Option.getOrThrow(found).customerId
      )
    )

  it("a card saved in setup mode is checked against its customer: attached when attached to nobody; another customer's card is a failed payment", async () => {
    const bookingId = crypto.randomUUID()
    const pm = `pm_${crypto.randomBytes(4).toString("hex")}`
    await sandboxCard(pm, null, ["cus_setup_1", "cus_other_1"])
    const setup = {
      id: "seti_check",
      object: "setup_intent",
      status: "succeeded",
      customer: "cus_setup_1",
      payment_method: pm,
      usage: "off_session",
      metadata: { bookingId }
    }
    expect(await applied(stripeEvent("setup_intent.succeeded", setup))).toMatchObject([
      { _tag: "CardSaved", customerId: "cus_setup_1", paymentMethodId: pm }
    ])
    expect(await attachedTo(pm)).toBe("cus_setup_1")

    // The session's customer is not the card's (Checkout did not attach it to the customer the booking will be charged with).
    const session = {
      id: "cs_check",
      object: "checkout.session",
      status: "complete",
      mode: "setup",
      customer: "cus_other_1",
      metadata: { bookingId },
      setup_intent: { ...setup, customer: null }
    }
    expect(await applied(stripeEvent("checkout.session.completed", session))).toMatchObject([
      { _tag: "PaymentFailed", bookingId, paymentIntentId: null, needsClient: true, code: "card_not_attached" }
    ])
    expect(await attachedTo(pm)).toBe("cus_setup_1")
    // A card the gateway does not know cannot be used either.
    expect(await applied(stripeEvent("setup_intent.succeeded", { ...setup, payment_method: "pm_unknown_card" }))).toMatchObject([
      { _tag: "PaymentFailed", code: "card_not_attached" }
    ])
  })

  it("payment_intent.amount_capturable_updated: PaymentAuthorized until the charge's capture_before, with customer and card", async () => {
    const bookingId = crypto.randomUUID()
    const object = intent(bookingId, {
      status: "requires_capture",
      amount_capturable: 12_000,
      customer: "cus_1",
      payment_method: { id: "pm_1", object: "payment_method" },
      latest_charge: {
        id: "ch_1",
        object: "charge",
        payment_method_details: { type: "card", card: { brand: "visa", last4: "4242", capture_before: 2_000_000_000 } }
      }
    })
    const payload = stripeEvent("payment_intent.amount_capturable_updated", object, { id: "evt_auth_1", created: 1_900_000_000 })
    expect(await applied(payload)).toEqual([
      {
        _tag: "PaymentAuthorized",
        bookingId,
        paymentIntentId: object.id,
        amountMinor: 12_000,
        expiresAt: new Date(2_000_000_000 * 1000),
        expiryKnown: true,
        extendedAuthorization: false,
        customerId: "cus_1",
        paymentMethodId: "pm_1",
        paymentMethod: "visa •••• 4242",
        reference: "evt_auth_1",
        occurredAt: new Date(1_900_000_000 * 1000)
      }
    ])
    // As Stripe sends it (latest_charge an id): the webhook retrieves the intent with its charge
    // expanded, and the hold lasts until the card's real capture_before (an extended one here).
    const plain = intent(bookingId, { status: "requires_capture", amount_capturable: 9_000, latest_charge: "ch_2" })
    await heldAtGateway(plain, 1_902_592_000)
    const [event] = await applied(stripeEvent("payment_intent.amount_capturable_updated", plain, { created: 1_900_000_000 }))
    expect(event).toMatchObject({
      _tag: "PaymentAuthorized",
      amountMinor: 9_000,
      expiresAt: new Date(1_902_592_000 * 1000),
      expiryKnown: true,
      extendedAuthorization: true,
      customerId: null,
      paymentMethodId: null,
      paymentMethod: "mastercard •••• 4444"
    })
    // A gateway that names no capture_before even then: the initiator's fallback from the event, an
    // hour short of 7 days on-session, of 4 days 18 hours off-session (the platform's renewal), marked unknown.
    for (const [metadata, window] of [
      [{ bookingId }, 7 * DAY_MS - 3600 * 1000],
      [{ bookingId, initiator: "merchant" }, 4 * DAY_MS + 17 * 3600 * 1000]
    ] as const) {
      const unknown = intent(bookingId, { status: "requires_capture", amount_capturable: 9_000, latest_charge: "ch_3", metadata })
      await heldAtGateway(unknown, null)
      const [fallback] = await applied(stripeEvent("payment_intent.amount_capturable_updated", unknown, { created: 1_900_000_000 }))
      expect(fallback).toMatchObject({ expiresAt: new Date(1_900_000_000 * 1000 + window), expiryKnown: false })
    }
    // The gateway cannot be asked (here: it does not know the intent): the delivery is refused, Stripe retries it.
    const missing = intent(bookingId, { status: "requires_capture", amount_capturable: 9_000, latest_charge: "ch_4" })
    const before = sink.applied.length
    const unanswered = stripeEvent("payment_intent.amount_capturable_updated", missing)
    const refused = await receive(unanswered, signed(unanswered))
    expect(Exit.isFailure(refused) ? Option.getOrThrow(Cause.failureOption(refused.cause)) : undefined).toMatchObject({
      _tag: "BadGateway",
      code: "PAYMENT_GATEWAY_ERROR"
    })
    expect(sink.applied.length).toBe(before)
  })

  it("payment_intent.succeeded, .canceled, charge.refunded: captured, released, refunded (cumulative)", async () => {
    const bookingId = crypto.randomUUID()
    const pi = intent(bookingId, { status: "succeeded", amount_received: 8_000 })
    expect(await applied(stripeEvent("payment_intent.succeeded", pi, { id: "evt_cap" }))).toMatchObject([
      { _tag: "PaymentCaptured", bookingId, paymentIntentId: pi.id, amountMinor: 8_000, reference: "evt_cap" }
    ])
    expect(await applied(stripeEvent("payment_intent.canceled", { ...pi, status: "canceled" }, { id: "evt_rel" }))).toMatchObject([
      { _tag: "AuthorizationReleased", bookingId, paymentIntentId: pi.id, reference: "evt_rel" }
    ])
    const charge = {
      id: "ch_9",
      object: "charge",
      payment_intent: pi.id,
      amount: 12_000,
      amount_captured: 8_000,
      amount_refunded: 5_000,
      refunded: false,
      metadata: { bookingId }
    }
    expect(await applied(stripeEvent("charge.refunded", charge, { id: "evt_ref" }))).toMatchObject([
      { _tag: "PaymentRefunded", bookingId, paymentIntentId: pi.id, totalRefundedMinor: 5_000, reference: "evt_ref" }
    ])
  })

  it("charge.refund.updated, refund.updated and refund.failed: the refund's new state, with Stripe's failure reason", async () => {
    const bookingId = crypto.randomUUID()
    const refund = (fields: Record<string, unknown>) => ({
      id: "re_1",
      object: "refund",
      amount: 2_500,
      charge: "ch_1",
      payment_intent: "pi_refunded",
      metadata: { bookingId },
      ...fields
    })
    for (const type of ["charge.refund.updated", "refund.updated", "refund.failed"]) {
      expect(
        await applied(stripeEvent(type, refund({ status: "failed", failure_reason: "expired_or_canceled_card" }), { id: `evt_${type}` }))
      ).toEqual([
        {
          _tag: "RefundUpdated",
          bookingId,
          paymentIntentId: "pi_refunded",
          refundId: "re_1",
          amountMinor: 2_500,
          status: "failed",
          failureReason: "expired_or_canceled_card",
          reference: `evt_${type}`,
          occurredAt: expect.any(Date)
        }
      ])
    }
    // A bank that asks something keeps it pending; a failure with no reason says "unknown".
    expect(await applied(stripeEvent("charge.refund.updated", refund({ status: "requires_action" })))).toMatchObject([
      { status: "pending", failureReason: null }
    ])
    expect(await applied(stripeEvent("refund.failed", refund({ status: "failed" })))).toMatchObject([{ failureReason: "unknown" }])
    // One made in the dashboard names no booking: acknowledged, nothing applied.
    expect(await applied(stripeEvent("refund.failed", refund({ status: "failed", metadata: {} })))).toEqual([])
  })

  it("payment_intent.payment_failed: the client must act after a decline or a needed authentication, not after a processing error", async () => {
    const bookingId = crypto.randomUUID()
    const failed = (error: Record<string, unknown>) =>
      applied(
        stripeEvent("payment_intent.payment_failed", intent(bookingId, { status: "requires_payment_method", last_payment_error: error }))
      )
    expect(await failed({ type: "card_error", code: "authentication_required", decline_code: "authentication_required" })).toMatchObject([
      { _tag: "PaymentFailed", bookingId, needsClient: true, code: "authentication_required" }
    ])
    expect(await failed({ type: "card_error", code: "card_declined", decline_code: "insufficient_funds" })).toMatchObject([
      { needsClient: true, code: "insufficient_funds" }
    ])
    expect(await failed({ type: "invalid_request_error", code: "payment_intent_authentication_failure" })).toMatchObject([
      { needsClient: true, code: "payment_intent_authentication_failure" }
    ])
    expect(await failed({ type: "api_error", code: "processing_error" })).toMatchObject([{ needsClient: false, code: "processing_error" }])
  })

  it("setup_intent.succeeded and checkout.session.completed: the card saved; a payment session only reports an expanded, held intent", async () => {
    const bookingId = crypto.randomUUID()
    await sandboxCard("pm_7", "cus_7")
    const setup = {
      id: "seti_1",
      object: "setup_intent",
      status: "succeeded",
      customer: "cus_7",
      payment_method: "pm_7",
      usage: "off_session",
      metadata: { bookingId }
    }
    expect(await applied(stripeEvent("setup_intent.succeeded", setup, { id: "evt_seti" }))).toMatchObject([
      { _tag: "CardSaved", bookingId, customerId: "cus_7", paymentMethodId: "pm_7", reference: "evt_seti" }
    ])
    const session = {
      id: "cs_1",
      object: "checkout.session",
      status: "complete",
      customer: "cus_7",
      client_reference_id: bookingId,
      metadata: { bookingId }
    }
    // As Stripe sends them: ids only; the intents' own events report the card and the hold.
    expect(
      await applied(stripeEvent("checkout.session.completed", { ...session, mode: "setup", setup_intent: "seti_1", payment_intent: null }))
    ).toEqual([])
    expect(
      await applied(stripeEvent("checkout.session.completed", { ...session, mode: "payment", payment_intent: "pi_1", setup_intent: null }))
    ).toEqual([])
    // Expanded: reported from the session.
    expect(
      await applied(stripeEvent("checkout.session.completed", { ...session, mode: "setup", setup_intent: { ...setup, customer: null } }))
    ).toMatchObject([{ _tag: "CardSaved", customerId: "cus_7", paymentMethodId: "pm_7" }])
    const held = intent(undefined, { status: "requires_capture", amount_capturable: 12_000, payment_method: "pm_8" })
    await heldAtGateway(held, nowSeconds() + 7 * 86_400)
    expect(await applied(stripeEvent("checkout.session.completed", { ...session, mode: "payment", payment_intent: held }))).toMatchObject([
      { _tag: "PaymentAuthorized", bookingId, paymentIntentId: held.id, customerId: "cus_7", paymentMethodId: "pm_8" }
    ])
    expect(
      await applied(
        stripeEvent("checkout.session.completed", {
          ...session,
          mode: "payment",
          payment_intent: { ...held, status: "requires_payment_method" }
        })
      )
    ).toEqual([])
  })

  it("events without metadata.bookingId, or with an unreadable object, are acknowledged and ignored", async () => {
    for (const payload of [
      stripeEvent("payment_intent.succeeded", intent(undefined, { status: "succeeded", amount_received: 1 })),
      stripeEvent("charge.refunded", { id: "ch_x", object: "charge", amount_refunded: 1, metadata: {} }),
      stripeEvent("payment_intent.canceled", { object: "payment_intent", metadata: { bookingId: "b" } }),
      stripeEvent("setup_intent.succeeded", {
        id: "seti_x",
        status: "succeeded",
        customer: null,
        payment_method: "pm_x",
        metadata: { bookingId: "b" }
      }),
      JSON.stringify({ id: `evt_noobj_${Date.now()}`, object: "event", type: "payment_intent.succeeded", created: nowSeconds(), data: {} })
    ]) {
      expect(await applied(payload), payload).toEqual([])
      expect((await deliver(payload)).duplicate).toBe(true)
    }
  })

  it("a repeated delivery is applied once; an out-of-order event is delivered (2xx) and left to the sink", async () => {
    const bookingId = crypto.randomUUID()
    const pi = intent(bookingId, { status: "requires_capture", amount_capturable: 12_000 })
    await heldAtGateway(pi, nowSeconds() + 7 * 86_400)
    const held = stripeEvent("payment_intent.amount_capturable_updated", pi, { created: nowSeconds() })
    const released = stripeEvent(
      "payment_intent.canceled",
      { ...pi, status: "canceled", amount_capturable: 0 },
      { created: nowSeconds() + 1 }
    )
    // The release arrives before the hold it releases.
    expect(await deliver(released)).toMatchObject({ duplicate: false, handled: true })
    expect(await deliver(held)).toMatchObject({ duplicate: false, handled: true })
    expect(await deliver(held)).toMatchObject({ duplicate: true, handled: true })
    expect(sink.applied.filter((e) => e.bookingId === bookingId).map((e) => e._tag)).toEqual(["AuthorizationReleased", "PaymentAuthorized"])
  })

  it("a bad signature is refused (400) and applies nothing", async () => {
    const payload = stripeEvent("payment_intent.succeeded", intent(crypto.randomUUID(), { status: "succeeded", amount_received: 1 }))
    const before = sink.applied.length
    for (const signature of [
      signPayload(payload, "whsec_wrong"),
      undefined,
      signed(payload.replace('"amount_received":1', '"amount_received":2'))
    ]) {
      const exit = await receive(payload, signature)
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Option.getOrThrow(Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : Option.none()) as BadRequest
      expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_WEBHOOK_SIGNATURE" })
      expect(httpStatusOf[error._tag]).toBe(400)
    }
    expect(sink.applied.length).toBe(before)
  })

  it.runIf(kind === "pglite")(
    "a sink failure fails the delivery and keeps no trace of the event: the gateway's retry applies it",
    async () => {
      const bookingId = crypto.randomUUID()
      const payload = stripeEvent("payment_intent.succeeded", intent(bookingId, { status: "succeeded", amount_received: 4_000 }))
      failNextApply = true
      expect(Exit.isFailure(await receive(payload, signed(payload)))).toBe(true)
      if (!pglite) throw new Error("a PGlite-only check ran in memory")
      const kept = await pglite.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_events WHERE id = ${JSON.parse(payload).id}`
        )
      )
      expect(kept[0]!.n).toBe(0)
      expect(await deliver(payload)).toMatchObject({ duplicate: false })
      expect(sink.applied.filter((e) => e.bookingId === bookingId)).toMatchObject([{ _tag: "PaymentCaptured", amountMinor: 4_000 }])
    }
  )
})

// ---- The local checkout pages over HTTP: pages -> sandbox -> signed webhook -> sink --------------

class PagesRouter extends HttpRouter.Tag("test/SandboxCheckoutPages")<PagesRouter>() {}

describe("sandbox checkout pages over HTTP", () => {
  const sink = recordingSink()
  /** The pages and the webhook endpoint served on `port`, the sandbox posting to `origin`. */
  const pagesOn = (port: number, origin: string) => {
    // The pages, and the webhook endpoint where the sandbox delivers its events (the app answers as here: 2xx, or the error's status).
    const Routes = PagesRouter.use((router) =>
      Effect.gen(function* () {
        yield* sandboxCheckoutRoutes(router)
        const webhooks = yield* PaymentWebhooks
        yield* router.post(
          "/api/payments/webhook",
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
            return yield* webhooks.receive("platform", body, request.headers["stripe-signature"]).pipe(
              Effect.as(HttpServerResponse.empty({ status: 200 })),
              Effect.catchAll((error) => Effect.succeed(HttpServerResponse.empty({ status: httpStatusOf[error._tag] })))
            )
          })
        )
      })
    )
    const services = Layer.mergeAll(
      SandboxCheckoutLive,
      SandboxChargeGatewayLive,
      PaymentWebhooksLive.pipe(Layer.provide(sink.layer), Layer.provide(SandboxGatewayLive), Layer.provide(SandboxChargeGatewayLive))
    )
    return PagesRouter.serve().pipe(
      Layer.provide(Routes),
      Layer.provide(NodeHttpServer.layer(() => http.createServer(), { port, host: "127.0.0.1" })),
      Layer.provideMerge(services),
      Layer.provide(Layer.mergeAll(PaymentsMemoryAdapters, NoTransaction, InMemoryJobQueueLive)),
      Layer.provide(config({ port, host: "127.0.0.1", publicUrl: origin })),
      Layer.provide(quiet)
    )
  }
  let runtime: RuntimeOf<ReturnType<typeof pagesOn>>
  let origin: string

  beforeAll(async () => {
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    runtime = ManagedRuntime.make(pagesOn(port, origin))
    await runtime.runPromise(Effect.void)
  })
  afterAll(() => runtime?.dispose())

  const newSession = async (overrides: Partial<CheckoutRequest> = {}) => {
    const bookingId = crypto.randomUUID()
    const input: CheckoutRequest = {
      bookingId,
      mode: "authorize",
      amountMinor: 12_000,
      currency: "CAD",
      productName: "Cours de piano <2 h>",
      destinationAccountId: "acct_sandbox_p",
      applicationFeeMinor: 600,
      customerEmail: "zoe@example.com",
      billing: {
        name: "Zoé Lévesque",
        email: "zoe@example.com",
        address: { line1: "1 rue Principale", city: "Montréal", postal_code: "H2X 1Y4", country: "CA" }
      },
      successUrl: `${origin}/bookings?payment=success&booking=${bookingId}`,
      cancelUrl: `${origin}/services/s1?payment=cancelled`,
      idempotencyKey: `booking:${bookingId}:checkout:1`,
      ...overrides
    }
    const session = await runtime.runPromise(Effect.flatMap(ChargeGateway, (g) => g.createCheckoutSession(input)))
    return { input, session, bookingId }
  }
  const get = (url: string, language = "en") => fetch(url, { redirect: "manual", headers: { "accept-language": language } })
  const post = (url: string, form: Record<string, string>) =>
    fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString()
    })
  const pay = (url: string, number: string, lang = "en") => post(`${url}/pay`, { number, expiry: "12/34", cvc: "123", name: "Zoé", lang })
  const appliedTo = (bookingId: string) => sink.applied.filter((e) => e.bookingId === bookingId)

  it("the page: product, amount in the page's language, labelled card fields, test cards, pay and cancel; nothing external", async () => {
    const { session } = await newSession()
    const en = await get(session.url)
    expect(en.status).toBe(200)
    const html = await en.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toContain("Cours de piano &lt;2 h&gt;")
    expect(html).toContain("$120.00")
    expect(html).toContain("pre-authorised on your card")
    for (const [id, label] of [
      ["number", "Card number"],
      ["expiry", "Expiry (MM/YY)"],
      ["cvc", "CVC"],
      ["name", "Cardholder name"]
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`)
      expect(html).toMatch(new RegExp(`<input id="${id}" name="${id}"`))
    }
    expect(html).toContain('value="Zoé Lévesque"')
    expect(html).toContain("4242 4242 4242 4242 (accepted)")
    expect(html).toContain("Pay CA$120.00")
    expect(html).toContain(`action="/sandbox/checkout/${session.id}/cancel"`)
    expect(html).not.toMatch(/<script|<link|<img|src="http/)

    const fr = await (await get(`${session.url}?lang=fr`)).text()
    expect(fr).toContain('<html lang="fr">')
    expect(fr).toMatch(/120,00\s\$/)
    expect(fr).toContain("Numéro de carte")

    const { session: yen } = await newSession({ currency: "JPY", amountMinor: 5_000 })
    expect(await (await get(yen.url)).text()).toMatch(/¥5,000(?!\.)/)
  })

  it("4242: 303 to the success URL, and the sink already has PaymentAuthorized (events delivered before the redirect)", async () => {
    const { bookingId, input, session } = await newSession()
    const reply = await pay(session.url, "4242 4242 4242 4242")
    expect(reply.status).toBe(303)
    expect(reply.headers.get("location")).toBe(input.successUrl)
    expect(appliedTo(bookingId)).toMatchObject([
      {
        _tag: "PaymentAuthorized",
        amountMinor: 12_000,
        customerId: expect.stringMatching(/^cus_sandbox_/),
        paymentMethod: "visa •••• 4242"
      }
    ])
    // Paid: the page now says the session is over.
    const again = await get(session.url)
    expect(again.status).toBe(410)
    expect(await again.text()).toContain("This payment session has expired or is already finished.")
  })

  it("save_card with 4242: 303, and the sink has CardSaved with the customer and card", async () => {
    const { bookingId, session } = await newSession({ mode: "save_card" })
    const page = await (await get(session.url)).text()
    expect(page).toContain("Your card will be saved")
    expect(page).toContain(">Save card</button>")
    const reply = await pay(session.url, "4242424242424242")
    expect(reply.status).toBe(303)
    expect(appliedTo(bookingId)).toMatchObject([
      { _tag: "CardSaved", customerId: expect.stringMatching(/^cus_sandbox_/), paymentMethodId: expect.stringMatching(/^pm_sandbox_/) }
    ])
  })

  it("0002: the page again with the decline message (the sink hears PaymentFailed); a bad number names its field", async () => {
    const { bookingId, session } = await newSession()
    const declined = await pay(session.url, "4000 0000 0000 0002")
    expect(declined.status).toBe(402)
    const html = await declined.text()
    expect(html).toContain('role="alert">Your card was declined. Try another card.</div>')
    expect(html).toContain('value="4000 0000 0000 0002"')
    expect(html).toMatch(/<input id="number"[^>]*aria-invalid="true"[^>]*aria-describedby="test-cards card-error"/)
    expect(appliedTo(bookingId)).toMatchObject([{ _tag: "PaymentFailed", needsClient: true, code: "generic_decline" }])

    const invalid = await pay(session.url, "1234", "fr")
    expect(invalid.status).toBe(400)
    expect(await invalid.text()).toContain("Numéro de carte invalide.")
  })

  it("3184: the bank's authentication page; failing shows the card form with an error, approving redirects", async () => {
    const { bookingId, input, session } = await newSession()
    const challenge = await pay(session.url, "4000 0025 0000 3184")
    expect(challenge.status).toBe(200)
    const html = await challenge.text()
    expect(html).toContain("Bank authentication (sandbox)")
    expect(html).toContain(`action="/sandbox/checkout/${session.id}/authenticate"`)
    expect(html).toContain('name="outcome" value="approve"')
    expect(html).toContain('name="outcome" value="fail"')

    const failed = await post(`${session.url}/authenticate`, { outcome: "fail", lang: "en" })
    expect(failed.status).toBe(402)
    expect(await failed.text()).toContain("Authentication failed. Try again or use another card.")

    expect((await pay(session.url, "4000 0025 0000 3184")).status).toBe(200)
    const approved = await post(`${session.url}/authenticate`, { outcome: "approve", lang: "en" })
    expect(approved.status).toBe(303)
    expect(approved.headers.get("location")).toBe(input.successUrl)
    expect(appliedTo(bookingId).map((e) => e._tag)).toEqual(["PaymentFailed", "PaymentAuthorized"])
  })

  it("cancel goes back to the cancel URL; unknown sessions are 404; return URLs off the marketplace are never followed", async () => {
    const { input, session } = await newSession()
    const cancelled = await post(`${session.url}/cancel`, { lang: "en" })
    expect(cancelled.status).toBe(303)
    expect(cancelled.headers.get("location")).toBe(input.cancelUrl)
    expect((await get(`${origin}/sandbox/checkout/cs_sandbox_missing`)).status).toBe(404)

    const foreign = await newSession({ successUrl: "https://evil.example/steal", cancelUrl: "https://evil.example/back" })
    const page = await get(foreign.session.url)
    expect(page.status).toBe(400)
    expect(await page.text()).toContain("its return addresses must belong to the marketplace")
    const paid = await pay(foreign.session.url, "4242 4242 4242 4242")
    expect(paid.status).toBe(400)
    expect(paid.headers.get("location")).toBeNull()
    expect((await post(`${foreign.session.url}/cancel`, {})).headers.get("location")).toBeNull()
    expect(appliedTo(foreign.bookingId)).toEqual([])
  })
})
