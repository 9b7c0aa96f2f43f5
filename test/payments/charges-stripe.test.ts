import { Effect, Either, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaymentsMemoryAdapters } from "../../src/modules/payments/adapters/memory"
import { StripeChargeGatewayLive } from "../../src/modules/payments/adapters/charges-stripe"
import { makeStripeClient } from "../../src/modules/payments/adapters/stripe"
import { withAttemptKeysLayer } from "../../src/modules/payments/attempts"
import { ChargeGateway, type CheckoutRequest } from "../../src/modules/payments/ports"
import { FAKE_HOLD_SECONDS, FAKE_PAYMENT_METHODS, type FakeStripe, startFakeStripe } from "./fake-stripe"
import { freePort } from "../support/server"
import { checkoutOf, stripeAdapterOn } from "./stripe-mode"

const DAY_MS = 24 * 3600 * 1000
const BOOKING = "5b0c6a52-7c1e-4a55-9d0e-2f3c1b0a9e11"

let fake: FakeStripe
beforeAll(async () => {
  fake = await startFakeStripe()
})
afterAll(() => fake?.stop())

// With attempts: as the app composes it (ChargeGatewayLive), each write under the key of its attempt.
/** Built at once: its start reads the platform's account (GET /v1/account), before a test counts requests. */
const readyGatewayOn = async (apiBase: string, options: { readonly attempts?: boolean } = {}) => {
  const gateway = gatewayOn(apiBase, options)
  await gateway.run(() => Effect.void)
  return gateway
}
const gatewayOn = (apiBase: string, options: { readonly attempts?: boolean } = {}) =>
  stripeAdapterOn(
    ChargeGateway,
    options.attempts ? withAttemptKeysLayer(StripeChargeGatewayLive).pipe(Layer.provide(PaymentsMemoryAdapters)) : StripeChargeGatewayLive,
    apiBase
  )

/** The key sent for a caller's key: extended with the digest of the parameters (idempotency.ts). */
const covered = (key: string) => expect.stringMatching(new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:p[A-Za-z0-9_-]{16}$`))

const checkout = (overrides: Partial<CheckoutRequest> = {}) => checkoutOf(BOOKING, overrides)

describe("Stripe charges: request shapes against a local fake of Stripe's API", () => {
  let gateway: ReturnType<typeof gatewayOn>
  beforeAll(async () => {
    gateway = await readyGatewayOn(fake.url)
  })
  afterAll(() => gateway?.dispose())

  it("authorize: a payment-mode Checkout Session with manual capture, destination, 5% fee, saved card, booking metadata", async () => {
    const start = fake.requests.length
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 2 * 3600 * 1000)
    const session = await gateway.run((g) => g.createCheckoutSession(checkout({ expiresAt, locale: "en" })))
    expect(session).toEqual({ id: expect.stringMatching(/^cs_fake_/), url: `https://checkout.stripe.test/c/pay/${session.id}` })
    const [request, ...rest] = fake.since(start)
    expect(rest).toEqual([])
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/checkout/sessions",
      idempotencyKey: covered(`booking:${BOOKING}:checkout:1`)
    })
    expect(request!.form).toEqual({
      mode: "payment",
      "line_items[0][price_data][currency]": "cad",
      "line_items[0][price_data][unit_amount]": "12000",
      "line_items[0][price_data][product_data][name]": "Ménage — 2 h",
      "line_items[0][quantity]": "1",
      "payment_intent_data[capture_method]": "manual",
      "payment_intent_data[transfer_data][destination]": "acct_provider_1",
      "payment_intent_data[application_fee_amount]": "600",
      "payment_intent_data[setup_future_usage]": "off_session",
      "payment_intent_data[metadata][bookingId]": BOOKING,
      "payment_method_options[card][request_extended_authorization]": "if_available",
      customer_creation: "always",
      customer_email: "zoe@example.com",
      "metadata[bookingId]": BOOKING,
      client_reference_id: BOOKING,
      success_url: "https://market.example/bookings?payment=success",
      cancel_url: "https://market.example/services/1?payment=cancelled",
      expires_at: String(expiresAt.getTime() / 1000),
      // The payer's account language: Stripe's page speaks it.
      locale: "en"
    })
  })

  it("starts only when STRIPE_PLATFORM_COUNTRY is the platform account's country (GET /v1/account)", async () => {
    const wrong = stripeAdapterOn(ChargeGateway, StripeChargeGatewayLive, fake.url, { stripePlatformCountry: "FR" })
    await expect(wrong.run((g) => g.listOpenHolds(new Date()))).rejects.toThrow(
      /STRIPE_PLATFORM_COUNTRY is FR but the Stripe account acct_fake_platform is in CA/
    )
    await wrong.dispose()
    expect(fake.requests.some((r) => r.method === "GET" && r.path === "/v1/account")).toBe(true)
  })

  it("a provider outside the platform's region: every charge and saved card settles on their account (on_behalf_of)", async () => {
    const start = fake.requests.length
    await gateway.run((g) => g.createCheckoutSession(checkout({ onBehalfOf: "acct_provider_1", idempotencyKey: "k-obo-1" })))
    await gateway.run((g) =>
      g.createCheckoutSession(checkout({ mode: "save_card", onBehalfOf: "acct_provider_1", idempotencyKey: "k-obo-2" }))
    )
    await gateway.run((g) => g.authorizeOffSession({ ...offSession("pm_card_visa", "k-obo-3"), onBehalfOf: "acct_provider_1" }))
    const [payment, setup, offSessionCharge] = fake.since(start)
    expect(payment!.form).toMatchObject({
      "payment_intent_data[transfer_data][destination]": "acct_provider_1",
      "payment_intent_data[on_behalf_of]": "acct_provider_1",
      "payment_intent_data[application_fee_amount]": "600"
    })
    expect(setup!.form).toMatchObject({ "setup_intent_data[on_behalf_of]": "acct_provider_1" })
    expect(offSessionCharge!.form).toMatchObject({ on_behalf_of: "acct_provider_1", "transfer_data[destination]": "acct_provider_1" })
  })

  it("save_card: a setup-mode session for cards, with the currency and the booking on the setup intent", async () => {
    const start = fake.requests.length
    await gateway.run((g) => g.createCheckoutSession(checkout({ mode: "save_card", currency: "EUR", idempotencyKey: "k-setup" })))
    const [request] = fake.since(start)
    expect(request).toMatchObject({ path: "/v1/checkout/sessions", idempotencyKey: covered("k-setup") })
    expect(request!.form).toEqual({
      mode: "setup",
      currency: "eur",
      "allowed_payment_method_types[0]": "card",
      "setup_intent_data[metadata][bookingId]": BOOKING,
      customer_creation: "always",
      customer_email: "zoe@example.com",
      "metadata[bookingId]": BOOKING,
      client_reference_id: BOOKING,
      success_url: "https://market.example/bookings?payment=success",
      cancel_url: "https://market.example/services/1?payment=cancelled"
    })
  })

  it("createCardPayment (Stripe Elements): a customer, then an unconfirmed manual-capture intent with destination, fee and saved card", async () => {
    const start = fake.requests.length
    const payment = await gateway.run((g) => g.createCardPayment!(checkout({ idempotencyKey: "k-elements" })))
    expect(payment).toEqual({ id: expect.stringMatching(/^pi_fake_/), clientSecret: `${payment.id}_secret_fake` })
    const [customer, intent, ...rest] = fake.since(start)
    expect(rest).toEqual([])
    expect(customer).toMatchObject({
      path: "/v1/customers",
      idempotencyKey: covered("k-elements:customer"),
      form: { email: "zoe@example.com", "metadata[bookingId]": BOOKING }
    })
    expect(intent).toMatchObject({ path: "/v1/payment_intents", idempotencyKey: covered("k-elements:intent") })
    expect(intent!.form).toEqual({
      amount: "12000",
      currency: "cad",
      customer: expect.stringMatching(/^cus_fake_/),
      capture_method: "manual",
      setup_future_usage: "off_session",
      "allowed_payment_method_types[0]": "card",
      "transfer_data[destination]": "acct_provider_1",
      application_fee_amount: "600",
      "payment_method_options[card][request_extended_authorization]": "if_available",
      "metadata[bookingId]": BOOKING
    })
    const setup = fake.requests.length
    const saved = await gateway.run((g) => g.createCardPayment!(checkout({ mode: "save_card", idempotencyKey: "k-elements-setup" })))
    expect(saved.id).toMatch(/^seti_fake_/)
    expect(fake.since(setup)[1]).toMatchObject({
      path: "/v1/setup_intents",
      form: { usage: "off_session", "allowed_payment_method_types[0]": "card", "metadata[bookingId]": BOOKING }
    })
  })

  it("capture: amount_to_capture and the fee recomputed on it; the captured amount is amount_received", async () => {
    const start = fake.requests.length
    const result = await gateway.run((g) =>
      g.capture({ paymentIntentId: "pi_capture_1", amountMinor: 8_000, applicationFeeMinor: 400, idempotencyKey: "k-capture" })
    )
    expect(result).toEqual({ capturedMinor: 8_000 })
    const [request] = fake.since(start)
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/payment_intents/pi_capture_1/capture",
      idempotencyKey: covered("k-capture")
    })
    expect(request!.form).toEqual({ amount_to_capture: "8000", application_fee_amount: "400" })
  })

  it("cancelAuthorization: cancels the intent; an intent already canceled counts as released; other refusals are errors", async () => {
    const start = fake.requests.length
    await gateway.run((g) => g.cancelAuthorization({ paymentIntentId: "pi_cancel_1", idempotencyKey: "k-cancel-1" }))
    const [request] = fake.since(start)
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/payment_intents/pi_cancel_1/cancel",
      idempotencyKey: covered("k-cancel-1"),
      form: {}
    })
    // Stripe answers payment_intent_unexpected_state (status canceled) the second time.
    await gateway.run((g) => g.cancelAuthorization({ paymentIntentId: "pi_cancel_1", idempotencyKey: "k-cancel-2" }))
    expect(fake.since(start)).toHaveLength(2)

    fake.failNext({ status: 400, type: "invalid_request_error", code: "payment_intent_unexpected_state", message: "status of succeeded" })
    const refused = await gateway.run((g) =>
      Effect.either(g.cancelAuthorization({ paymentIntentId: "pi_cancel_2", idempotencyKey: "k-cancel-3" }))
    )
    expect(Either.isLeft(refused) && refused.left).toMatchObject({ _tag: "PaymentGatewayError", operation: "paymentIntents.cancel" })
  })

  it("refund: reverses the transfer and the platform's fee, with the booking in metadata", async () => {
    const start = fake.requests.length
    const result = await gateway.run((g) =>
      g.refund({ paymentIntentId: "pi_refund_1", amountMinor: 2_500, idempotencyKey: "k-refund", bookingId: BOOKING })
    )
    expect(result).toEqual({
      refundId: expect.stringMatching(/^re_fake_/),
      amountMinor: 2_500,
      totalRefundedMinor: 2_500,
      status: "succeeded"
    })
    const [request] = fake.since(start)
    expect(request).toMatchObject({ method: "POST", path: "/v1/refunds", idempotencyKey: covered("k-refund") })
    expect(request!.form).toEqual({
      payment_intent: "pi_refund_1",
      amount: "2500",
      reverse_transfer: "true",
      refund_application_fee: "true",
      "metadata[bookingId]": BOOKING,
      "expand[0]": "charge"
    })
  })

  it("refundsOf: the payment's refunds, the app's and those made in the dashboard, each with its state (a failed one gave nothing back)", async () => {
    const own = await gateway.run((g) => g.refund({ paymentIntentId: "pi_refund_2", amountMinor: 1_200, idempotencyKey: "k-refund-2" }))
    fake.refundInDashboard("pi_refund_2", 800)
    fake.refunds.push({ id: "re_failed", payment_intent: "pi_refund_2", amount: 300, status: "failed" })
    fake.refundInDashboard("pi_other", 100)
    const start = fake.requests.length
    const refunds = await gateway.run((g) => g.refundsOf("pi_refund_2"))
    expect(refunds).toEqual([
      { refundId: own.refundId, amountMinor: 1_200, status: "succeeded" },
      { refundId: expect.stringMatching(/^re_fake_/), amountMinor: 800, status: "succeeded" },
      { refundId: "re_failed", amountMinor: 300, status: "failed" }
    ])
    expect(fake.since(start)).toMatchObject([{ method: "GET", path: "/v1/refunds" }])
    expect(fake.since(start)[0]!.form).toMatchObject({ payment_intent: "pi_refund_2" })
  })

  const offSession = (paymentMethodId: string, idempotencyKey: string) => ({
    bookingId: BOOKING,
    amountMinor: 12_000,
    currency: "CAD",
    destinationAccountId: "acct_provider_1",
    applicationFeeMinor: 600,
    customerId: "cus_1",
    paymentMethodId,
    idempotencyKey
  })

  it("authorizeOffSession: a confirmed off-session intent with manual capture; the hold lasts until the charge's capture_before", async () => {
    const start = fake.requests.length
    const before = Math.floor(Date.now() / 1000)
    const result = await gateway.run((g) => g.authorizeOffSession(offSession("pm_card_visa", "k-off-1")))
    const [request] = fake.since(start)
    expect(request).toMatchObject({ method: "POST", path: "/v1/payment_intents", idempotencyKey: covered("k-off-1") })
    expect(request!.form).toEqual({
      amount: "12000",
      currency: "cad",
      customer: "cus_1",
      payment_method: "pm_card_visa",
      off_session: "true",
      confirm: "true",
      capture_method: "manual",
      "transfer_data[destination]": "acct_provider_1",
      application_fee_amount: "600",
      "payment_method_options[card][request_extended_authorization]": "if_available",
      // Stripe's objects do not say an intent was confirmed off-session: the metadata does.
      "metadata[bookingId]": BOOKING,
      "metadata[initiator]": "merchant",
      "expand[0]": "latest_charge"
    })
    expect(result).toMatchObject({
      _tag: "Authorized",
      paymentIntentId: expect.stringMatching(/^pi_fake_/),
      amountMinor: 12_000,
      expiryKnown: true,
      extendedAuthorization: false
    })
    const expiresAt = (result as { expiresAt: Date }).expiresAt.getTime() / 1000
    expect(expiresAt).toBeGreaterThanOrEqual(before + FAKE_HOLD_SECONDS)
    expect(expiresAt).toBeLessThanOrEqual(before + FAKE_HOLD_SECONDS + 5)
  })

  it("authorizeOffSession without capture_before: the hold is taken to last a merchant-initiated 4 days 18 hours (an hour short), marked unknown", async () => {
    const window = 4 * DAY_MS + 17 * 3_600_000
    const before = Date.now()
    const result = await gateway.run((g) => g.authorizeOffSession(offSession(FAKE_PAYMENT_METHODS.noCaptureBefore, "k-off-2")))
    expect(result).toMatchObject({ _tag: "Authorized", expiryKnown: false })
    const expiresAt = (result as { expiresAt: Date }).expiresAt.getTime()
    expect(expiresAt).toBeGreaterThanOrEqual(before + window)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + window)
  })

  it("heldPayment: retrieves the intent with its charge expanded, the one way to its capture_before after the creating request", async () => {
    const held = await gateway.run((g) => g.authorizeOffSession(offSession("pm_card_visa", "k-off-held")))
    const id = (held as { paymentIntentId: string }).paymentIntentId
    const start = fake.requests.length
    const found = await gateway.run((g) => g.heldPayment(id))
    expect(fake.since(start)).toMatchObject([{ method: "GET", path: `/v1/payment_intents/${id}`, form: { "expand[0]": "latest_charge" } }])
    expect(found).toEqual({
      captureBefore: (held as { expiresAt: Date }).expiresAt,
      paymentMethod: "visa •••• 4242",
      extendedAuthorization: false
    })
    await expect(gateway.run((g) => g.heldPayment("pi_unknown"))).rejects.toThrow(/No such payment_intent/)
  })

  it("authorizeOffSession refusals: authentication_required and card declines need the client; a 500 or no API is a PaymentGatewayError", async () => {
    expect(await gateway.run((g) => g.authorizeOffSession(offSession(FAKE_PAYMENT_METHODS.authenticationRequired, "k-off-3")))).toEqual({
      _tag: "Refused",
      paymentIntentId: expect.stringMatching(/^pi_fake_/),
      needsClient: true,
      code: "authentication_required"
    })
    expect(await gateway.run((g) => g.authorizeOffSession(offSession(FAKE_PAYMENT_METHODS.declined, "k-off-4")))).toEqual({
      _tag: "Refused",
      paymentIntentId: expect.stringMatching(/^pi_fake_/),
      needsClient: true,
      code: "generic_decline"
    })

    // The library retries a 500 twice (maxNetworkRetries) with the same key: Stripe replays the stored 500.
    const start = fake.requests.length
    fake.failNext({ status: 500, type: "api_error", message: "Something went wrong" })
    const failed = await gateway.run((g) => Effect.either(g.authorizeOffSession(offSession("pm_card_visa", "k-off-5"))))
    expect(Either.isLeft(failed) && failed.left).toMatchObject({ _tag: "PaymentGatewayError", operation: "paymentIntents.create" })
    expect(Either.isLeft(failed) && failed.left.detail).toContain("Something went wrong")
    expect(fake.since(start).map((r) => r.idempotencyKey)).toEqual([covered("k-off-5"), covered("k-off-5"), covered("k-off-5")])
    expect(new Set(fake.since(start).map((r) => r.idempotencyKey)).size).toBe(1)

    const closed = gatewayOn(`http://127.0.0.1:${await freePort()}`)
    try {
      const offline = await closed.run((g) =>
        Effect.either(g.capture({ paymentIntentId: "pi_1", amountMinor: 1, applicationFeeMinor: 0, idempotencyKey: "k" }))
      )
      expect(Either.isLeft(offline) && offline.left._tag).toBe("PaymentGatewayError")
    } finally {
      await closed.dispose()
    }
  })

  it("every charge call fails as PaymentGatewayError on a Stripe refusal", async () => {
    fake.failNext({ status: 400, type: "invalid_request_error", message: "No such destination: 'acct_x'" })
    const session = await gateway.run((g) => Effect.either(g.createCheckoutSession(checkout({ idempotencyKey: "k-fail-1" }))))
    expect(Either.isLeft(session) && session.left).toMatchObject({ _tag: "PaymentGatewayError", operation: "checkout.sessions.create" })
    fake.failNext({ status: 400, type: "invalid_request_error", code: "charge_expired_for_capture", message: "expired" })
    const capture = await gateway.run((g) =>
      Effect.either(g.capture({ paymentIntentId: "pi_x", amountMinor: 1, applicationFeeMinor: 0, idempotencyKey: "k-fail-2" }))
    )
    expect(Either.isLeft(capture) && capture.left.detail).toContain("charge_expired_for_capture")
    fake.failNext({ status: 400, type: "invalid_request_error", code: "charge_already_refunded", message: "already refunded" })
    const refund = await gateway.run((g) =>
      Effect.either(g.refund({ paymentIntentId: "pi_x", amountMinor: 1, idempotencyKey: "k-fail-3" }))
    )
    expect(Either.isLeft(refund) && refund.left.operation).toBe("refunds.create")
  })
})

describe("Stripe charges: idempotency keys that name the attempt and cover the parameters (the fake stores answers as Stripe does)", () => {
  let gateway: ReturnType<typeof gatewayOn>
  beforeAll(async () => {
    gateway = await readyGatewayOn(fake.url, { attempts: true })
  })
  afterAll(() => gateway?.dispose())

  const keysSince = (start: number) => fake.since(start).map((r) => r.idempotencyKey)
  const offSession = (idempotencyKey: string) => ({
    bookingId: BOOKING,
    amountMinor: 12_000,
    currency: "CAD",
    destinationAccountId: "acct_provider_1",
    applicationFeeMinor: 600,
    customerId: "cus_1",
    paymentMethodId: "pm_card_visa",
    idempotencyKey
  })

  it("a retry after a gateway error (a stored 500) is a new attempt with a new key, for every write", async () => {
    const writes: ReadonlyArray<readonly [string, (g: ChargeGateway["Type"]) => Effect.Effect<unknown, unknown>]> = [
      ["off-session authorisation", (g) => g.authorizeOffSession(offSession(`booking:${BOOKING}:authorize:first`))],
      [
        "capture",
        (g) =>
          g.capture({
            paymentIntentId: "pi_attempt_capture",
            amountMinor: 8_000,
            applicationFeeMinor: 400,
            idempotencyKey: `booking:${BOOKING}:capture:pi_attempt_capture`
          })
      ],
      [
        "release",
        (g) =>
          g.cancelAuthorization({ paymentIntentId: "pi_attempt_release", idempotencyKey: `booking:${BOOKING}:release:pi_attempt_release` })
      ],
      [
        "refund",
        (g) => g.refund({ paymentIntentId: "pi_attempt_refund", amountMinor: 1_000, idempotencyKey: `booking:${BOOKING}:refund:r1` })
      ],
      ["checkout session", (g) => g.createCheckoutSession(checkout({ idempotencyKey: `booking:${BOOKING}:checkout:attempts` }))]
    ]
    for (const [name, write] of writes) {
      const start = fake.requests.length
      fake.failNext({ status: 500, type: "api_error", message: "Something went wrong" })
      const failed = await gateway.run((g) => Effect.either(write(g)))
      expect(Either.isLeft(failed), name).toBe(true)
      const failedKeys = keysSince(start)
      // The library's own retries of that attempt: one key, replayed by Stripe.
      expect(new Set(failedKeys).size, name).toBe(1)
      expect(failedKeys[0], name).toMatch(/:attempt-0:p[A-Za-z0-9_-]{16}$/)

      const retried = fake.requests.length
      const again = await gateway.run((g) => Effect.either(write(g)))
      expect(Either.isRight(again), `${name}: ${Either.isLeft(again) ? String((again.left as { detail?: string }).detail) : ""}`).toBe(true)
      const [next] = keysSince(retried)
      expect(next, name).toMatch(/:attempt-1:p[A-Za-z0-9_-]{16}$/)
      expect(next, name).not.toBe(failedKeys[0])

      // After the success, a retry replays it (same attempt, same key): nothing is done twice.
      const replayed = fake.requests.length
      expect(await gateway.run((g) => Effect.either(write(g)))).toEqual(again)
      expect(keysSince(replayed), name).toEqual([next])
    }
  })

  it("an off-session authorisation the card refused is answered once: the next one is a new attempt", async () => {
    const key = `booking:${BOOKING}:authorize:declined-then-new-card`
    const start = fake.requests.length
    const refused = await gateway.run((g) => g.authorizeOffSession({ ...offSession(key), paymentMethodId: FAKE_PAYMENT_METHODS.declined }))
    expect(refused._tag).toBe("Refused")
    const held = await gateway.run((g) => g.authorizeOffSession(offSession(key)))
    expect(held._tag).toBe("Authorized")
    const [first, second] = keysSince(start)
    expect(first).toMatch(/:attempt-0:/)
    expect(second).toMatch(/:attempt-1:/)
  })

  it("a retry after no answer (timeout, dropped connection) keeps its attempt and key: a request Stripe did is not done twice", async () => {
    const key = `booking:${BOOKING}:capture:pi_attempt_timeout`
    const capture = (g: ChargeGateway["Type"]) =>
      g.capture({ paymentIntentId: "pi_attempt_timeout", amountMinor: 5_000, applicationFeeMinor: 250, idempotencyKey: key })
    const start = fake.requests.length
    fake.failNext({ status: 0, type: "", message: "", times: 3 })
    const lost = await gateway.run((g) => Effect.either(capture(g)))
    expect(Either.isLeft(lost) && lost.left.unanswered).toBe(true)
    const lostKeys = keysSince(start)
    expect(lostKeys.length).toBeGreaterThanOrEqual(1)
    const retried = fake.requests.length
    expect(await gateway.run(capture)).toEqual({ capturedMinor: 5_000 })
    expect(keysSince(retried)).toEqual([lostKeys[0]])
    expect(lostKeys[0]).toMatch(/:attempt-0:/)
  })

  it("a checkout retried with corrected details under the same caller key is a new request; an identical retry is idempotent", async () => {
    const key = `booking:${BOOKING}:checkout:7:29000000`
    const first = await gateway.run((g) => g.createCheckoutSession(checkout({ idempotencyKey: key, customerEmail: "zoe@exmaple.com" })))
    const corrected = await gateway.run((g) => g.createCheckoutSession(checkout({ idempotencyKey: key, customerEmail: "zoe@example.com" })))
    expect(corrected.id).not.toBe(first.id)
    expect(await gateway.run((g) => g.createCheckoutSession(checkout({ idempotencyKey: key, customerEmail: "zoe@example.com" })))).toEqual(
      corrected
    )
  })

  it("the fake refuses a key reused with other parameters, as Stripe does (400 idempotency_error)", async () => {
    const stripe = makeStripeClient("sk_test_fake_key", Option.some(fake.url))
    await stripe.refunds.create({ payment_intent: "pi_reuse", amount: 100 }, { idempotencyKey: "raw-key-reused" })
    await expect(
      stripe.refunds.create({ payment_intent: "pi_reuse", amount: 200 }, { idempotencyKey: "raw-key-reused" })
    ).rejects.toMatchObject({
      type: "StripeIdempotencyError",
      statusCode: 400
    })
  })
})

describe("Stripe charges: a card saved in setup mode is attached to its customer before it is used off-session", () => {
  let gateway: ReturnType<typeof gatewayOn>
  beforeAll(async () => {
    gateway = await readyGatewayOn(fake.url, { attempts: true })
  })
  afterAll(() => gateway?.dispose())

  const offSession = (paymentMethodId: string, customerId: string) => ({
    bookingId: BOOKING,
    amountMinor: 12_000,
    currency: "CAD",
    destinationAccountId: "acct_provider_1",
    applicationFeeMinor: 600,
    customerId,
    paymentMethodId,
    idempotencyKey: `booking:${BOOKING}:authorize:${paymentMethodId}`
  })
  const ensure = (paymentMethodId: string, customerId: string) =>
    gateway.run((g) =>
      g.ensureCardAttached({ customerId, paymentMethodId, idempotencyKey: `card:${paymentMethodId}:attach:${customerId}` })
    )

  it("the fake refuses an off-session authorisation with a card not attached to the customer, as Stripe does", async () => {
    fake.addPaymentMethod("pm_setup_loose", null)
    const refused = await gateway.run((g) => Effect.either(g.authorizeOffSession(offSession("pm_setup_loose", "cus_setup"))))
    expect(Either.isLeft(refused) && refused.left.code).toBe("payment_method_invalid_parameter")
  })

  it("a card attached to nobody is attached (then usable off-session); an attached one is only read; another customer's or an unknown one is unusable", async () => {
    fake.addPaymentMethod("pm_setup_1", null)
    const start = fake.requests.length
    expect(await ensure("pm_setup_1", "cus_setup")).toEqual({ _tag: "Attached" })
    const [read, attach] = fake.since(start)
    expect(read).toMatchObject({ method: "GET", path: "/v1/payment_methods/pm_setup_1" })
    expect(attach).toMatchObject({ method: "POST", path: "/v1/payment_methods/pm_setup_1/attach", form: { customer: "cus_setup" } })
    expect(fake.paymentMethods.get("pm_setup_1")).toBe("cus_setup")
    expect((await gateway.run((g) => g.authorizeOffSession(offSession("pm_setup_1", "cus_setup"))))._tag).toBe("Authorized")

    const again = fake.requests.length
    expect(await ensure("pm_setup_1", "cus_setup")).toEqual({ _tag: "Attached" })
    expect(fake.since(again).map((r) => r.method)).toEqual(["GET"])

    expect(await ensure("pm_setup_1", "cus_someone_else")).toMatchObject({ _tag: "Unusable" })
    expect(fake.paymentMethods.get("pm_setup_1")).toBe("cus_setup")
    expect(await ensure("pm_never_seen", "cus_setup")).toMatchObject({ _tag: "Unusable" })
  })
})
