import { expect, type Vitest } from "@effect/vitest"
import { layer } from "../support/effect-layer"
import { Clock, Context, Effect, Either, Layer, Option, Redacted, TestClock } from "effect"
import * as crypto from "node:crypto"
import { SandboxChargeGatewayLive, SandboxCheckout, SandboxCheckoutLive } from "../../src/modules/payments/adapters/charges-sandbox"
import { SandboxDeliveryJobsLive } from "../../src/modules/payments/adapters/sandbox-events"
import { SandboxAccountStore } from "../../src/modules/payments/ports"
import { InMemoryJobQueueLive } from "../../src/platform/jobs"
import { PaymentsMemoryAdapters } from "../../src/modules/payments/adapters/memory"
import { PaymentsPostgresAdapters } from "../../src/modules/payments/adapters/postgres"
import { ChargeGateway, type CheckoutRequest, type OffSessionRequest, SandboxChargeStore } from "../../src/modules/payments/ports"
import { AppConfigOf } from "../../src/platform/config"
import { runMigrations } from "../../src/platform/migrations"
import { NoTransaction, SqlTransactional } from "../../src/platform/transaction"
import { freshTestDatabase, storeKinds } from "../support/database"
import { eventually, startWebhookRecorder, type WebhookRecorder } from "./support"
import { scratchDir } from "../support/scratch"

/**
 * The sandbox's state machine, on every store (in memory, PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set), with time from TestClock. Its events go to a recorder standing where the
 * app's webhook endpoint is, which checks their signatures.
 */

const SECRET = "whsec_sandbox_charges_test"
const PUBLIC_URL = "http://market.test"
const DAY_MS = 24 * 3600 * 1000
const kinds = storeKinds

class Recorder extends Context.Tag("test/WebhookRecorder")<Recorder, WebhookRecorder>() {}
const RecorderLive = Layer.scoped(
  Recorder,
  Effect.acquireRelease(
    Effect.promise(() => startWebhookRecorder(SECRET)),
    (recorder) => Effect.promise(recorder.stop)
  )
)
// The sandbox posts its events to the app's own listener (HOST:PORT): here, the recorder.
const ConfigLive = Layer.unwrapEffect(
  Effect.map(Recorder, (recorder) =>
    AppConfigOf({
      port: recorder.port,
      host: "127.0.0.1",
      publicUrl: PUBLIC_URL,
      paymentsMode: "sandbox",
      stripeWebhookSecret: Option.some(Redacted.make(SECRET)),
      dataDir: scratchDir("sandbox-charges")
    })
  )
)
const storesOn = (kind: (typeof kinds)[number]) =>
  kind === "memory"
    ? Layer.merge(PaymentsMemoryAdapters, NoTransaction)
    : Layer.mergeAll(PaymentsPostgresAdapters, SqlTransactional, Layer.effectDiscard(Effect.orDie(runMigrations))).pipe(
        Layer.provideMerge(freshTestDatabase(kind))
      )

const sandboxOn = (kind: (typeof kinds)[number]) =>
  Layer.mergeAll(SandboxChargeGatewayLive, SandboxCheckoutLive, SandboxDeliveryJobsLive).pipe(
    // Redeliveries wait on the (test) clock, as the in-process retries do.
    Layer.provideMerge(InMemoryJobQueueLive),
    Layer.provideMerge(storesOn(kind)),
    Layer.provideMerge(ConfigLive),
    Layer.provideMerge(RecorderLive)
  )

const card = (number: string) => ({ number, expiry: "12/34", cvc: "123" })
const CARDS = {
  ok: card("4242 4242 4242 4242"),
  mastercard: card("5555 5555 5555 4444"),
  declined: card("4000 0000 0000 0002"),
  authenticate: card("4000 0025 0000 3184")
}

const request = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => {
  const bookingId = crypto.randomUUID()
  return {
    bookingId,
    mode: "authorize",
    amountMinor: 12_000,
    currency: "CAD",
    productName: "Jardinage",
    destinationAccountId: "acct_sandbox_provider",
    applicationFeeMinor: 600,
    customerEmail: "zoe@example.com",
    successUrl: `${PUBLIC_URL}/bookings?payment=success&booking=${bookingId}`,
    cancelUrl: `${PUBLIC_URL}/services/1?payment=cancelled`,
    idempotencyKey: `booking:${bookingId}:checkout:1`,
    ...overrides
  }
}

const services = Effect.all({ gateway: ChargeGateway, checkout: SandboxCheckout, recorder: Recorder, store: SandboxChargeStore })
const now = Effect.map(Clock.currentTimeMillis, (ms) => ms)
const failure = <A>(effect: Effect.Effect<A, { readonly detail: string }>) =>
  Effect.map(Effect.either(effect), (result) => (Either.isLeft(result) ? result.left.detail : "no failure"))
/** The events of a type about one object (an intent or charge id, or a booking), once `count` of them arrived (API calls deliver in the background). */
const eventsAbout = (recorder: WebhookRecorder, type: string, about: string, count = 1) => {
  const matching = () =>
    recorder
      .ofType(type)
      .filter((e) => e.object.id === about || e.object.payment_intent === about || e.object.metadata?.bookingId === about)
  return Effect.promise(async () => {
    await eventually(() => matching().length >= count, `${count} ${type} about ${about}`)
    // Anything more would arrive within a moment.
    await new Promise((resolve) => setTimeout(resolve, 30))
    return matching()
  })
}

/** Card expiry dates are read against the clock: tests run in mid-2030. */
const IN_2030 = Date.UTC(2030, 5, 15)
const test = <R>(it: Vitest.MethodsNonLive<R>, name: string, body: () => Effect.Effect<void, unknown, R>) =>
  it.effect(name, () =>
    Effect.zipRight(
      Effect.flatMap(now, (t) => (t < IN_2030 ? TestClock.setTime(IN_2030) : Effect.void)),
      body()
    )
  )

/** A checkout paid with 4242: the booking's money is held. */
const heldPayment = (overrides: Partial<CheckoutRequest> = {}, number: "ok" | "mastercard" = "ok") =>
  Effect.gen(function* () {
    const { checkout, gateway, recorder } = yield* services
    const input = request(overrides)
    const session = yield* gateway.createCheckoutSession(input)
    expect(yield* checkout.pay(session.id, CARDS[number])).toEqual({ _tag: "Completed", successUrl: input.successUrl })
    const held = recorder.ofType("payment_intent.amount_capturable_updated").find((e) => e.object.metadata.bookingId === input.bookingId)!
    return { input, session, intentId: held.object.id as string, held }
  })

/** A card saved through a setup-mode checkout (3184 after approving the bank's step). */
const savedCard = (number: "ok" | "authenticate") =>
  Effect.gen(function* () {
    const { checkout, gateway, recorder } = yield* services
    const input = request({ mode: "save_card" })
    const session = yield* gateway.createCheckoutSession(input)
    const paid = yield* checkout.pay(session.id, CARDS[number])
    if (number === "authenticate") {
      expect(paid._tag).toBe("AuthenticationRequired")
      expect((yield* checkout.authenticate(session.id, true))._tag).toBe("Completed")
    }
    const saved = recorder.ofType("setup_intent.succeeded").find((e) => e.object.metadata.bookingId === input.bookingId)!
    return { input, customerId: saved.object.customer as string, paymentMethodId: saved.object.payment_method as string }
  })

const offSession = (
  saved: { customerId: string; paymentMethodId: string },
  overrides: Partial<OffSessionRequest> = {}
): OffSessionRequest => {
  const bookingId = crypto.randomUUID()
  return {
    bookingId,
    amountMinor: 9_000,
    currency: "EUR",
    destinationAccountId: "acct_sandbox_provider",
    applicationFeeMinor: 450,
    customerId: saved.customerId,
    paymentMethodId: saved.paymentMethodId,
    idempotencyKey: `booking:${bookingId}:authorize:first`,
    ...overrides
  }
}

for (const kind of kinds) {
  layer(sandboxOn(kind), { timeout: "60 seconds" })(`sandbox charges on ${kind}`, (it) => {
    test(
      it,
      "a checkout session is a local page on the marketplace; the same idempotency key answers the same session, a corrected request a new one",
      () =>
        Effect.gen(function* () {
          const { checkout, gateway } = yield* services
          const input = request()
          const session = yield* gateway.createCheckoutSession(input)
          expect(session.url).toBe(`${PUBLIC_URL}/sandbox/checkout/${session.id}`)
          // The payer's language rides on the address (the page reads it; see sandbox-flow for the page).
          const english = yield* gateway.createCheckoutSession(request({ locale: "en" }))
          expect(english.url).toBe(`${PUBLIC_URL}/sandbox/checkout/${english.id}?lang=en`)
          expect(session.id).toMatch(/^cs_sandbox_[0-9a-f]{24}$/)
          expect(yield* gateway.createCheckoutSession(input)).toEqual(session)
          // Corrected in the same minute (same caller key, other billing details): a new request, not a 502.
          const corrected = {
            ...input,
            billing: {
              name: "Zoé Lévesque",
              email: "zoe@example.com",
              address: { line1: "1 rue Sainte-Catherine", city: "Montréal", postal_code: "H2X 1K4", country: "CA" }
            }
          }
          const second = yield* gateway.createCheckoutSession(corrected)
          expect(second.id).not.toBe(session.id)
          expect(yield* gateway.createCheckoutSession(corrected)).toEqual(second)
          const found = Option.getOrThrow(yield* checkout.find(session.id))
          expect(found.state).toBe("open")
          expect(found.session).toMatchObject({
            mode: "payment",
            bookingId: input.bookingId,
            amountMinor: 12_000,
            currency: "CAD",
            status: "open"
          })
          expect(found.session.expiresAt.getTime() - (yield* now)).toBe(DAY_MS)
          expect(yield* checkout.find("cs_sandbox_unknown")).toEqual(Option.none())
          expect(yield* failure(gateway.createCheckoutSession(request({ successUrl: "javascript:alert(1)" })))).toContain("url_invalid")
          expect(yield* failure(gateway.createCheckoutSession(request({ amountMinor: 0 })))).toContain("parameter_invalid_integer")
        })
    )

    test(it, "4242 authorises: held 7 days, Stripe's events delivered before the answer, the card saved to a new customer", () =>
      Effect.gen(function* () {
        const { gateway, recorder, store } = yield* services
        const t0 = yield* now
        const { held, input, intentId, session } = yield* heldPayment()
        expect(held.object).toMatchObject({
          object: "payment_intent",
          status: "requires_capture",
          amount: 12_000,
          amount_capturable: 12_000,
          currency: "cad",
          capture_method: "manual",
          application_fee_amount: 600,
          transfer_data: { destination: "acct_sandbox_provider" },
          customer: expect.stringMatching(/^cus_sandbox_/),
          payment_method: expect.stringMatching(/^pm_sandbox_/),
          metadata: { bookingId: input.bookingId },
          // As Stripe's events: the charge is an id; only a retrieval that expands it says until when the hold lasts.
          latest_charge: expect.stringMatching(/^ch_sandbox_/)
        })
        expect(yield* gateway.heldPayment(intentId)).toEqual({
          captureBefore: new Date(Math.floor((t0 + 7 * DAY_MS) / 1000) * 1000),
          paymentMethod: "visa •••• 4242",
          extendedAuthorization: false
        })
        const completed = recorder.ofType("checkout.session.completed").find((e) => e.object.id === session.id)!
        expect(completed.object).toMatchObject({
          mode: "payment",
          status: "complete",
          payment_intent: intentId,
          customer: held.object.customer,
          metadata: { bookingId: input.bookingId }
        })
        const method = Option.getOrThrow(yield* store.findPaymentMethod(held.object.payment_method))
        expect(method).toMatchObject({ customerId: held.object.customer, behaviour: "succeeds", last4: "4242" })
      })
    )

    test(it, "5555 (Mastercard) gets an extended authorisation: held 30 days, said by the expanded charge", () =>
      Effect.gen(function* () {
        const { gateway } = yield* services
        const t0 = yield* now
        const { intentId } = yield* heldPayment({}, "mastercard")
        expect(yield* gateway.heldPayment(intentId)).toEqual({
          captureBefore: new Date(Math.floor((t0 + 30 * DAY_MS) / 1000) * 1000),
          paymentMethod: "mastercard •••• 4444",
          extendedAuthorization: true
        })
        // A hold it does not know: refused as Stripe refuses it.
        expect(yield* failure(gateway.heldPayment("pi_sandbox_none"))).toContain("resource_missing")
      })
    )

    test(
      it,
      "a destination charge for an account outside the platform's region (CA) is refused without on_behalf_of, as Stripe refuses it",
      () =>
        Effect.gen(function* () {
          const { gateway } = yield* services
          const accountId = `acct_sandbox_fr_${crypto.randomBytes(4).toString("hex")}`
          yield* Effect.flatMap(SandboxAccountStore, (accounts) =>
            accounts.create({ accountId, country: "FR", userId: crypto.randomUUID(), email: "lea@example.fr" }, `account:${accountId}`)
          )
          expect(yield* failure(gateway.createCheckoutSession(request({ destinationAccountId: accountId })))).toContain(
            "Cannot create a destination charge for connected accounts in FR"
          )
          const session = yield* gateway.createCheckoutSession(request({ destinationAccountId: accountId, onBehalfOf: accountId }))
          expect(session.id).toMatch(/^cs_sandbox_/)
          const saved = yield* savedCard("ok")
          expect(yield* failure(gateway.authorizeOffSession(offSession(saved, { destinationAccountId: accountId })))).toContain(
            "on_behalf_of"
          )
          expect(
            (yield* gateway.authorizeOffSession(offSession(saved, { destinationAccountId: accountId, onBehalfOf: accountId })))._tag
          ).toBe("Authorized")
        })
    )

    test(it, "partial capture, then refunds up to the captured amount; idempotency keys replay without a second effect", () =>
      Effect.gen(function* () {
        const { gateway, recorder, store } = yield* services
        const { intentId } = yield* heldPayment()
        const capture = { paymentIntentId: intentId, amountMinor: 8_000, applicationFeeMinor: 400, idempotencyKey: `capture:${intentId}` }
        expect(yield* gateway.capture(capture)).toEqual({ capturedMinor: 8_000 })
        // Same key: same answer, nothing captured again; another key: the intent is no longer capturable.
        expect(yield* gateway.capture(capture)).toEqual({ capturedMinor: 8_000 })
        expect(yield* failure(gateway.capture({ ...capture, idempotencyKey: "another" }))).toContain("payment_intent_unexpected_state")
        const succeeded = yield* eventsAbout(recorder, "payment_intent.succeeded", intentId)
        expect(succeeded.map((e) => e.object)).toMatchObject([
          { status: "succeeded", amount_received: 8_000, amount_capturable: 0, application_fee_amount: 400 }
        ])

        const refund = (amountMinor: number, key: string) => gateway.refund({ paymentIntentId: intentId, amountMinor, idempotencyKey: key })
        const first = yield* refund(3_000, `refund:${intentId}:1`)
        expect(first).toEqual({
          refundId: expect.stringMatching(/^re_sandbox_/),
          amountMinor: 3_000,
          totalRefundedMinor: 3_000,
          status: "succeeded"
        })
        expect(yield* refund(3_000, `refund:${intentId}:1`)).toEqual(first)
        expect(yield* failure(refund(5_001, `refund:${intentId}:2`))).toContain("amount_too_large")
        expect(yield* refund(5_000, `refund:${intentId}:3`)).toMatchObject({ amountMinor: 5_000, totalRefundedMinor: 8_000 })
        expect(yield* failure(refund(1, `refund:${intentId}:4`))).toContain("charge_already_refunded")
        const refunds = yield* eventsAbout(recorder, "charge.refunded", intentId, 2)
        expect(refunds.map((e) => e.object.amount_refunded)).toEqual([3_000, 8_000])
        expect(refunds[1]!.object).toMatchObject({
          object: "charge",
          payment_intent: intentId,
          refunded: true,
          metadata: { bookingId: expect.any(String) }
        })
        expect(Option.getOrThrow(yield* store.findIntent(intentId))).toMatchObject({ amountReceived: 8_000, amountRefunded: 8_000 })
      })
    )

    test(it, "concurrent requests with one idempotency key: one capture, one event; the others get its answer (or Stripe's 409)", () =>
      Effect.gen(function* () {
        const { gateway, recorder } = yield* services
        const { intentId } = yield* heldPayment()
        const capture = gateway.capture({
          paymentIntentId: intentId,
          amountMinor: 12_000,
          applicationFeeMinor: 600,
          idempotencyKey: `capture:${intentId}`
        })
        const results = yield* Effect.all(
          Array.from({ length: 5 }, () => Effect.either(capture)),
          { concurrency: "unbounded" }
        )
        for (const result of results) {
          if (Either.isRight(result)) expect(result.right).toEqual({ capturedMinor: 12_000 })
          else expect(result.left.detail).toContain("idempotency_key_in_use")
        }
        expect(results.some(Either.isRight)).toBe(true)
        expect(yield* eventsAbout(recorder, "payment_intent.succeeded", intentId)).toHaveLength(1)
      })
    )

    test(it, "an event the app refuses is delivered again, under the same event id, after a backoff", () =>
      Effect.gen(function* () {
        const { gateway, recorder } = yield* services
        const { intentId } = yield* heldPayment()
        recorder.failNext(2)
        yield* gateway.cancelAuthorization({ paymentIntentId: intentId, idempotencyKey: `release:${intentId}` })
        // The retries wait on the (test) clock: move it on until the event gets through.
        const arrived = () => recorder.ofType("payment_intent.canceled").some((e) => e.object.id === intentId)
        while (!arrived()) {
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
          yield* TestClock.adjust("1 second")
        }
        const [event] = recorder.ofType("payment_intent.canceled").filter((e) => e.object.id === intentId)
        expect(recorder.failed.slice(-2)).toEqual([event!.id, event!.id])
      })
    )

    test(
      it,
      "checkout.session.completed refused by the app for longer than the in-process retries (its database away) is redelivered from the durable queue, same event id",
      () =>
        Effect.gen(function* () {
          const { checkout, gateway, recorder } = yield* services
          const input = request()
          const session = yield* gateway.createCheckoutSession(input)
          // The first delivery and the six in-process retries all fail: before, the event was lost.
          recorder.failNext(7)
          expect(yield* checkout.pay(session.id, CARDS.ok)).toMatchObject({ _tag: "Completed" })
          const arrived = () => recorder.ofType("checkout.session.completed").some((e) => e.object.id === session.id)
          for (let step = 0; step < 600 && !arrived(); step++) {
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
            yield* TestClock.adjust("1 second")
          }
          expect(arrived()).toBe(true)
          const [event] = recorder.ofType("checkout.session.completed").filter((e) => e.object.id === session.id)
          expect(recorder.failed.filter((id) => id === event!.id).length).toBeGreaterThanOrEqual(1)
          // Accepted once: no redelivery follows.
          for (let step = 0; step < 200; step++) yield* TestClock.adjust("1 minute")
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
          expect(recorder.ofType("checkout.session.completed").filter((e) => e.object.id === session.id)).toHaveLength(1)
        })
    )

    test(it, "an authorisation lapses after 7 days: captured just before, refused just after (charge_expired_for_capture)", () =>
      Effect.gen(function* () {
        const { gateway } = yield* services
        const early = yield* heldPayment()
        const late = yield* heldPayment()
        yield* TestClock.adjust(7 * DAY_MS - 1_000)
        expect(
          yield* gateway.capture({
            paymentIntentId: early.intentId,
            amountMinor: 12_000,
            applicationFeeMinor: 600,
            idempotencyKey: `c:${early.intentId}`
          })
        ).toEqual({ capturedMinor: 12_000 })
        yield* TestClock.adjust(1_000)
        expect(
          yield* failure(
            gateway.capture({
              paymentIntentId: late.intentId,
              amountMinor: 12_000,
              applicationFeeMinor: 600,
              idempotencyKey: `c:${late.intentId}`
            })
          )
        ).toContain("charge_expired_for_capture")
        // Releasing a lapsed hold still works.
        yield* gateway.cancelAuthorization({ paymentIntentId: late.intentId, idempotencyKey: `r:${late.intentId}` })
      })
    )

    test(it, "cancel releases the hold once; canceling again succeeds quietly; a canceled intent cannot be captured", () =>
      Effect.gen(function* () {
        const { gateway, recorder } = yield* services
        const { intentId } = yield* heldPayment()
        yield* gateway.cancelAuthorization({ paymentIntentId: intentId, idempotencyKey: `release:${intentId}` })
        yield* gateway.cancelAuthorization({ paymentIntentId: intentId, idempotencyKey: `release:${intentId}:again` })
        expect(
          yield* failure(
            gateway.capture({ paymentIntentId: intentId, amountMinor: 1, applicationFeeMinor: 0, idempotencyKey: `c:${intentId}` })
          )
        ).toContain("payment_intent_unexpected_state")
        expect(yield* failure(gateway.cancelAuthorization({ paymentIntentId: "pi_sandbox_nope", idempotencyKey: "x" }))).toContain(
          "resource_missing"
        )
        const canceled = yield* eventsAbout(recorder, "payment_intent.canceled", intentId)
        expect(canceled.map((e) => e.object)).toMatchObject([{ status: "canceled", amount_capturable: 0 }])
      })
    )

    test(it, "0002 is declined (payment_failed sent, the session stays open); a 4242 retry completes the same intent", () =>
      Effect.gen(function* () {
        const { checkout, gateway, recorder } = yield* services
        const input = request()
        const session = yield* gateway.createCheckoutSession(input)
        expect(yield* checkout.pay(session.id, CARDS.declined)).toEqual({ _tag: "Declined", code: "generic_decline" })
        const failed = recorder.ofType("payment_intent.payment_failed").find((e) => e.object.metadata.bookingId === input.bookingId)!
        expect(failed.object).toMatchObject({
          status: "requires_payment_method",
          last_payment_error: { type: "card_error", code: "card_declined", decline_code: "generic_decline" }
        })
        expect(Option.getOrThrow(yield* checkout.find(session.id)).state).toBe("open")
        expect((yield* checkout.pay(session.id, CARDS.ok))._tag).toBe("Completed")
        const held = recorder
          .ofType("payment_intent.amount_capturable_updated")
          .find((e) => e.object.metadata.bookingId === input.bookingId)!
        expect(held.object.id).toBe(failed.object.id)
        // A completed session takes no more payment.
        expect(yield* checkout.pay(session.id, CARDS.ok)).toEqual({ _tag: "Closed" })
        expect(Option.getOrThrow(yield* checkout.find(session.id)).state).toBe("complete")
      })
    )

    test(it, "3184 asks for authentication: failing it keeps the session open, approving it authorises", () =>
      Effect.gen(function* () {
        const { checkout, gateway, recorder } = yield* services
        const input = request()
        const session = yield* gateway.createCheckoutSession(input)
        expect(yield* checkout.authenticate(session.id, true)).toEqual({ _tag: "NothingToAuthenticate" })
        expect(yield* checkout.pay(session.id, CARDS.authenticate)).toEqual({ _tag: "AuthenticationRequired" })
        expect(yield* checkout.authenticate(session.id, false)).toEqual({ _tag: "AuthenticationFailed" })
        const failed = recorder.ofType("payment_intent.payment_failed").find((e) => e.object.metadata.bookingId === input.bookingId)!
        expect(failed.object.last_payment_error).toMatchObject({ code: "payment_intent_authentication_failure" })
        expect(Option.getOrThrow(yield* checkout.find(session.id)).state).toBe("open")
        expect(yield* checkout.pay(session.id, card("4000 0027 6000 3184"))).toEqual({ _tag: "AuthenticationRequired" })
        expect(yield* checkout.authenticate(session.id, true)).toEqual({ _tag: "Completed", successUrl: input.successUrl })
        expect(
          recorder.ofType("payment_intent.amount_capturable_updated").some((e) => e.object.metadata.bookingId === input.bookingId)
        ).toBe(true)
      })
    )

    test(it, "card form checks: number (Luhn), expiry not past, CVC; a session past its expiry is closed", () =>
      Effect.gen(function* () {
        const { checkout, gateway } = yield* services
        const session = yield* gateway.createCheckoutSession(request())
        expect(yield* checkout.pay(session.id, card("4242 4242 4242 4241"))).toEqual({ _tag: "InvalidCard", problem: "invalidNumber" })
        expect(yield* checkout.pay(session.id, card("4242"))).toEqual({ _tag: "InvalidCard", problem: "invalidNumber" })
        expect(yield* checkout.pay(session.id, { ...CARDS.ok, expiry: "05/30" })).toEqual({ _tag: "InvalidCard", problem: "invalidExpiry" })
        expect(yield* checkout.pay(session.id, { ...CARDS.ok, expiry: "13/40" })).toEqual({ _tag: "InvalidCard", problem: "invalidExpiry" })
        expect(yield* checkout.pay(session.id, { ...CARDS.ok, cvc: "12" })).toEqual({ _tag: "InvalidCard", problem: "invalidCvc" })
        // Another valid number is declined, as Stripe's test mode does with real cards.
        expect(yield* checkout.pay(session.id, card("4111 1111 1111 1111"))).toEqual({ _tag: "Declined", code: "generic_decline" })
        expect(yield* checkout.pay("cs_sandbox_none", CARDS.ok)).toEqual({ _tag: "NotFound" })
        yield* TestClock.adjust(DAY_MS)
        expect(yield* checkout.pay(session.id, { ...CARDS.ok, expiry: "06/30" })).toEqual({ _tag: "Closed" })
        expect(Option.getOrThrow(yield* checkout.find(session.id)).state).toBe("expired")
      })
    )

    test(it, "save_card: setup_intent.succeeded with the customer and card, then off-session 4242 authorises (idempotently)", () =>
      Effect.gen(function* () {
        const { gateway, recorder } = yield* services
        const t0 = yield* now
        const saved = yield* savedCard("ok")
        expect(saved.customerId).toMatch(/^cus_sandbox_/)
        expect(saved.paymentMethodId).toMatch(/^pm_sandbox_/)
        const completed = recorder.ofType("checkout.session.completed").find((e) => e.object.metadata.bookingId === saved.input.bookingId)!
        expect(completed.object).toMatchObject({
          mode: "setup",
          customer: saved.customerId,
          setup_intent: expect.stringMatching(/^seti_sandbox_/),
          payment_intent: null
        })

        const input = offSession(saved)
        const result = yield* gateway.authorizeOffSession(input)
        expect(result).toEqual({
          _tag: "Authorized",
          paymentIntentId: expect.stringMatching(/^pi_sandbox_/),
          amountMinor: 9_000,
          // Merchant-initiated on Visa: 4 days 18 hours, known from the creating request's expanded charge.
          expiresAt: new Date(t0 + 4 * DAY_MS + 18 * 3_600_000),
          expiryKnown: true,
          extendedAuthorization: false
        })
        expect(yield* gateway.authorizeOffSession(input)).toEqual(result)
        const held = yield* eventsAbout(recorder, "payment_intent.amount_capturable_updated", input.bookingId)
        expect(held.map((e) => e.object.id)).toEqual([(result as { paymentIntentId: string }).paymentIntentId])
        expect(held[0]!.object).toMatchObject({
          currency: "eur",
          customer: saved.customerId,
          payment_method: saved.paymentMethodId,
          application_fee_amount: 450,
          metadata: { bookingId: input.bookingId, initiator: "merchant" }
        })
        // Another customer's card, or an unknown one, is refused.
        expect(yield* failure(gateway.authorizeOffSession(offSession({ ...saved, customerId: "cus_sandbox_other" })))).toContain(
          "payment_method_invalid_parameter"
        )
        expect(yield* failure(gateway.authorizeOffSession(offSession({ ...saved, paymentMethodId: "pm_sandbox_none" })))).toContain(
          "resource_missing"
        )
      })
    )

    test(it, "off-session: a saved 3184 card is refused with authentication_required, a 0002 card with its decline code", () =>
      Effect.gen(function* () {
        const { gateway, recorder, store } = yield* services
        const authenticating = yield* savedCard("authenticate")
        const input = offSession(authenticating)
        expect(yield* gateway.authorizeOffSession(input)).toEqual({
          _tag: "Refused",
          paymentIntentId: expect.stringMatching(/^pi_sandbox_/),
          needsClient: true,
          code: "authentication_required"
        })
        const failed = yield* eventsAbout(recorder, "payment_intent.payment_failed", input.bookingId)
        expect(failed.map((e) => e.object.last_payment_error)).toMatchObject([{ type: "card_error", code: "authentication_required" }])

        // Checkout cannot save a card that declines (setup declines too): saved directly, as a card that later fails.
        const customerId = `cus_sandbox_${crypto.randomBytes(6).toString("hex")}`
        yield* store.saveCustomer({ id: customerId, email: "a@example.com" })
        const paymentMethodId = `pm_sandbox_${crypto.randomBytes(6).toString("hex")}`
        yield* store.savePaymentMethod({
          id: paymentMethodId,
          customerId,
          brand: "visa",
          last4: "0002",
          expMonth: 12,
          expYear: 2034,
          behaviour: "declines"
        })
        expect(yield* gateway.authorizeOffSession(offSession({ customerId, paymentMethodId }))).toEqual({
          _tag: "Refused",
          paymentIntentId: expect.stringMatching(/^pi_sandbox_/),
          needsClient: true,
          code: "generic_decline"
        })
      })
    )

    test(it, "save_card with 0002 is declined and saves nothing; the session stays open; every event was signed", () =>
      Effect.gen(function* () {
        const { checkout, gateway, recorder } = yield* services
        const input = request({ mode: "save_card" })
        const session = yield* gateway.createCheckoutSession(input)
        expect(yield* checkout.pay(session.id, CARDS.declined)).toEqual({ _tag: "Declined", code: "generic_decline" })
        expect(recorder.events.some((e) => e.object.metadata?.bookingId === input.bookingId)).toBe(false)
        expect(Option.getOrThrow(yield* checkout.find(session.id)).state).toBe("open")
        expect(recorder.refused()).toBe(0)
      })
    )
  })
}
