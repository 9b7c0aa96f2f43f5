import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { Bookings } from "../../src/modules/booking"
import { BookingRepository } from "../../src/modules/booking/ports"
import { Transactional } from "../../src/platform/transaction"
import { ChargeGateway } from "../../src/modules/payments"
import { SandboxChargeStore } from "../../src/modules/payments/ports"
import { SandboxCheckout } from "../../src/modules/payments/adapters/charges-sandbox"
import { signPayload } from "../../src/modules/payments/adapters/signature"
import { en } from "../../src/platform/messages"
import { adjustableClock } from "../support/clock"
import { httpWorld } from "../support/world"
import { stripeEvent, WEBHOOK_SECRET } from "../payments/support"
import { payInSandbox } from "./support"
import { DAY, MINUTE } from "../support/durations"

/**
 * Issue 10, "money moves only when it should", over the real server (sandbox payments, a clock moved by
 * hand, webhooks signed with the server's secret): saved cards are collected at completion, events of a
 * payment intent apply in the order they were created, a booking has one open checkout session, and the
 * reconciliation releases holds no booking references and applies completions whose delivery was lost.
 */

const time = adjustableClock()
const world = httpWorld({
  config: { stripeWebhookSecret: Option.some(Redacted.make(WEBHOOK_SECRET)) },
  clock: time.clock,
  service: { title: "Jardinage", description: "Taille de haies et tonte de pelouse.", price: 40, location: "Lyon" },
  admin: true,
  booking: { address: "5 place Bellecour, Lyon" }
})
const { server, api, provider, client, admin, nextSlot } = world

/** A 2-hour booking requested `daysAhead` days from the adjusted now, on a fresh slot. */
const book = (daysAhead: number): Promise<{ id: string; startTime: string; endTime: string; totalMinor: number }> =>
  world.book(client.token, nextSlot(2, daysAhead * 24))
const get = async (id: string) => (await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking
const row = (id: string) =>
  server
    .run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            paymentIntentId: string | null
            checkoutSessionId: string | null
          }>`SELECT payment_intent_id AS "paymentIntentId", checkout_session_id AS "checkoutSessionId" FROM bookings WHERE id = ${id}`
      )
    )
    .then((rows) => rows[0]!)
const intentStatus = (id: string) =>
  server.run(Effect.flatMap(SandboxChargeStore, (store) => Effect.map(store.findIntent(id), (found) => Option.getOrThrow(found).status)))
const reconcile = () => server.run(Effect.flatMap(Bookings, (bookings) => bookings.reconcile))
const deliver = async (payload: string) => {
  const reply = await fetch(`${server.url}/api/payments/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signPayload(payload, WEBHOOK_SECRET) },
    body: payload
  })
  await reply.arrayBuffer()
  expect(reply.status).toBe(200)
}
/** The gateway's event of a payment of the booking's intent refused by the card's bank, as created at `created` (in seconds). */
const cardDeclined = (paymentIntentId: string | null, bookingId: string, created: number) =>
  stripeEvent(
    "payment_intent.payment_failed",
    {
      id: paymentIntentId,
      object: "payment_intent",
      status: "requires_payment_method",
      last_payment_error: { type: "card_error", code: "card_declined" },
      metadata: { bookingId }
    },
    { created }
  )
/** Moves the clock just past the booking's start (the timers may run meanwhile: they only secure the payment earlier). */
const toStartOf = (booking: { startTime: string }) => time.advance(new Date(booking.startTime).getTime() - time.now().getTime() + MINUTE)
/** A paid booking confirmed, started, rendered, then completed by the client (the completion's reply). */
const complete = async (booking: { id: string; startTime: string }) => {
  expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })).status).toBe(200)
  toStartOf(booking)
  expect((await api.post(`/api/bookings/${booking.id}/mark-rendered`, {}, { token: provider.token })).status).toBe(200)
  const completed = await api.post(
    `/api/bookings/${booking.id}/confirm-completion`,
    { rating: 5, comment: "Haie parfaitement taillée." },
    { token: client.token }
  )
  expect(completed.status, completed.text).toBe(200)
  return completed
}
/** A booking's REFUND operations as [amount, reason]. */
const refundOperations = (bookingId: string) =>
  server.run(
    Effect.map(
      Effect.flatMap(BookingRepository, (bookings) => bookings.operations(bookingId)),
      (operations) => operations.filter((o) => o.kind === "REFUND").map((o) => [o.amountMinor, o.detail])
    )
  )

describe("a booking paid by a saved card (more than 5 days ahead)", () => {
  it("is charged when the client confirms completion: COMPLETED and CAPTURED, never COMPLETED with nothing captured", async () => {
    const booking = await book(10)
    await payInSandbox(server, api, client.token, booking.id)
    expect(await get(booking.id)).toMatchObject({ status: "PENDING", paymentStatus: "CARD_SAVED" })
    const completed = await complete(booking)
    expect(completed.body.data.booking).toMatchObject({ status: "COMPLETED", paymentStatus: "CAPTURED" })
    expect(await get(booking.id)).toMatchObject({ status: "COMPLETED", paymentStatus: "CAPTURED", paymentIssue: null })
  })

  it("whose card is refused when collected is flagged for the administrators (detail and list)", async () => {
    const booking = await book(10)
    await payInSandbox(server, api, client.token, booking.id)
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })).status).toBe(200)
    // The saved card is declined from now on (blocked by its bank).
    await server.run(
      Effect.gen(function* () {
        const store = yield* SandboxChargeStore
        const sql = yield* SqlClient.SqlClient
        const [b] = yield* sql<{ pm: string }>`SELECT gateway_payment_method_id AS pm FROM bookings WHERE id = ${booking.id}`
        const method = Option.getOrThrow(yield* store.findPaymentMethod(b!.pm))
        yield* store.savePaymentMethod({ ...method, behaviour: "declines" })
      })
    )
    toStartOf(booking)
    const validated = await api.call("PATCH", `/api/admin/bookings/${booking.id}/status`, {
      token: admin.token,
      json: { status: "VALIDATED" }
    })
    expect(validated.status, validated.text).toBe(200)
    const detail = (await api.get(`/api/admin/bookings/${booking.id}`, { token: admin.token })).body.data.booking
    expect(detail).toMatchObject({ status: "VALIDATED", capturedMinor: 0, paymentIssue: "AUTHORIZATION_FAILED" })
    const list = (await api.get("/api/admin/bookings?limit=100", { token: admin.token })).body.data.bookings as Array<{
      id: string
      paymentIssue: string | null
    }>
    expect(list.find((b) => b.id === booking.id)?.paymentIssue).toBe("AUTHORIZATION_FAILED")
    // The parties do not see the back-office's flag.
    expect((await get(booking.id)).paymentIssue).toBeNull()
  })
})

describe("charge events in any order", () => {
  it("a payment failure created before the authorisation but delivered after it changes nothing", async () => {
    const booking = await book(1)
    await payInSandbox(server, api, client.token, booking.id)
    expect(await get(booking.id)).toMatchObject({ paymentStatus: "AUTHORIZED" })
    const { paymentIntentId } = await row(booking.id)
    const created = Math.floor(time.now().getTime() / 1000) - 30
    await deliver(cardDeclined(paymentIntentId, booking.id, created))
    expect(await get(booking.id)).toMatchObject({ paymentStatus: "AUTHORIZED", actions: expect.not.arrayContaining(["pay"]) })
    // Even one from the same second: a held intent cannot fail any more.
    await deliver(cardDeclined(paymentIntentId, booking.id, created + 30))
    expect(await get(booking.id)).toMatchObject({ paymentStatus: "AUTHORIZED" })
  })
})

describe("charge events in any order, with a dispute (issue 13)", () => {
  it("a stale failure leaves a disputed booking's hold alone; a late, repeated capture answer never changes what the decision kept", async () => {
    const booking = await book(1)
    await payInSandbox(server, api, client.token, booking.id)
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })).status).toBe(200)
    toStartOf(booking)
    expect((await api.post(`/api/bookings/${booking.id}/mark-rendered`, {}, { token: provider.token })).status).toBe(200)
    const form = new FormData()
    form.append("reason", "QUALITY")
    form.append("description", "La haie n'est taillée que d'un côté.")
    const reported = await fetch(`${server.url}/api/bookings/${booking.id}/dispute`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.token}` },
      body: form
    })
    expect(reported.status, await reported.text()).toBe(201)
    const { paymentIntentId } = await row(booking.id)
    // A decline created before the hold, delivered now: the disputed booking keeps its hold.
    await deliver(cardDeclined(paymentIntentId, booking.id, Math.floor(time.now().getTime() / 1000) - 3600))
    expect(await get(booking.id)).toMatchObject({ status: "DISPUTED", paymentStatus: "AUTHORIZED" })

    const decided = await api.post(
      `/api/admin/bookings/${booking.id}/dispute/resolve`,
      { outcome: "CAPTURE_PART", amountMinor: 3_000, note: "Travail à moitié fait." },
      { token: admin.token }
    )
    expect(decided.status, decided.text).toBe(200)
    expect(decided.body.data.booking).toMatchObject({ status: "RESOLVED", paymentStatus: "CAPTURED", capturedMinor: 3_000 })
    // The gateway's success event, late and twice, even one claiming the whole hold: ignored.
    for (const amount of [3_000, booking.totalMinor]) {
      await deliver(
        stripeEvent("payment_intent.succeeded", {
          id: paymentIntentId,
          object: "payment_intent",
          status: "succeeded",
          amount: booking.totalMinor,
          amount_received: amount,
          metadata: { bookingId: booking.id }
        })
      )
    }
    const after = (await api.get(`/api/admin/bookings/${booking.id}`, { token: admin.token })).body.data.booking
    expect(after).toMatchObject({ status: "RESOLVED", paymentStatus: "CAPTURED", capturedMinor: 3_000 })
  })
})

describe("one open checkout session per booking", () => {
  it("a new session expires the previous one, which can no longer be paid", async () => {
    const booking = await book(1)
    const first = await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: client.token })
    time.advance(2 * MINUTE)
    const second = await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: client.token })
    expect(second.status, second.text).toBe(200)
    expect(second.body.data.sessionId).not.toBe(first.body.data.sessionId)
    const state = (id: string) =>
      server.run(Effect.flatMap(SandboxCheckout, (checkout) => Effect.map(checkout.find(id), (found) => Option.getOrThrow(found).state)))
    expect(await state(first.body.data.sessionId)).toBe("expired")
    expect(await state(second.body.data.sessionId)).toBe("open")
    const paidOld = await server.run(
      Effect.flatMap(SandboxCheckout, (checkout) =>
        checkout.pay(first.body.data.sessionId, { number: "4242424242424242", expiry: "12/34", cvc: "123" })
      )
    )
    expect(paidOld._tag).toBe("Closed")
    expect(await get(booking.id)).toMatchObject({ paymentStatus: "UNPAID" })
  })

  it("a session paid in another tab whose event has not arrived yet: 409 PAYMENT_ALREADY_MADE, and the new session is closed", async () => {
    const booking = await book(1)
    const first = await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: client.token })
    // Paid at the gateway; its events are still on the way.
    await server.run(
      Effect.flatMap(SandboxChargeStore, (store) =>
        Effect.flatMap(store.findSession(first.body.data.sessionId), (found) =>
          store.saveSession({ ...Option.getOrThrow(found), status: "complete" })
        )
      )
    )
    time.advance(2 * MINUTE)
    const second = await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: client.token, language: "en" })
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ code: "PAYMENT_ALREADY_MADE", message: en["payments.alreadyPaid"] })
    expect((await row(booking.id)).checkoutSessionId).toBe(first.body.data.sessionId)
    const open = await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            n: number
          }>`SELECT count(*)::int AS n FROM sandbox_checkout_sessions WHERE booking_id = ${booking.id} AND status = 'open' AND expires_at > ${time.now()}`
      )
    )
    expect(open[0]!.n).toBe(0)
  })

  it("two sessions paid at once (in two tabs): the booking keeps one hold, the other is released", async () => {
    const booking = await book(1)
    // Two sessions opened before either was paid (as two tabs racing would).
    const [a, b] = await server.run(
      Effect.gen(function* () {
        const gateway = yield* ChargeGateway
        const open = (n: number) =>
          gateway.createCheckoutSession({
            bookingId: booking.id,
            mode: "authorize",
            amountMinor: booking.totalMinor,
            currency: "EUR",
            productName: "Jardinage",
            destinationAccountId: `acct_tab_${n}`,
            applicationFeeMinor: 0,
            customerEmail: "client@example.com",
            successUrl: "http://127.0.0.1/ok",
            cancelUrl: "http://127.0.0.1/ko",
            idempotencyKey: `tab:${booking.id}:${n}`
          })
        return [yield* open(1), yield* open(2)] as const
      })
    )
    const pay = (sessionId: string) =>
      server.run(
        Effect.flatMap(SandboxCheckout, (checkout) => checkout.pay(sessionId, { number: "4242424242424242", expiry: "12/34", cvc: "123" }))
      )
    expect((await pay(a.id))._tag).toBe("Completed")
    expect((await pay(b.id))._tag).toBe("Completed")
    const kept = (await row(booking.id)).paymentIntentId!
    expect(await get(booking.id)).toMatchObject({ paymentStatus: "AUTHORIZED" })
    const intents = await server.run(
      Effect.flatMap(SandboxCheckout, (checkout) =>
        Effect.forEach([a.id, b.id], (id) => Effect.map(checkout.find(id), (found) => Option.getOrThrow(found).session.paymentIntentId!))
      )
    )
    const other = intents.find((id) => id !== kept)!
    expect(intents).toContain(kept)
    // Released by the reconciliation (or earlier by the webhook's delayed release job).
    time.advance(11 * MINUTE)
    const report = await reconcile()
    expect(await intentStatus(other)).toBe("canceled")
    expect(await intentStatus(kept)).toBe("requires_capture")
    expect(report.released.map((r) => r.paymentIntentId).concat(report.released.length === 0 ? [other] : [])).toContain(other)
    expect((await row(booking.id)).paymentIntentId).toBe(kept)
  })
})

describe("reconciliation with the gateway", () => {
  /** The gateway's state after a payment whose events never reached the app (a database outage, kill -9). */
  const paidWithoutDelivery = (bookingId: string, totalMinor: number, mode: "payment" | "setup") =>
    server.run(
      Effect.gen(function* () {
        const store = yield* SandboxChargeStore
        const at = new Date(time.now().getTime() - 20 * MINUTE)
        const suffix = `${mode}_${bookingId.slice(0, 8)}`
        yield* store.saveCustomer({ id: `cus_lost_${suffix}`, email: "client@example.com" })
        yield* store.savePaymentMethod({
          id: `pm_lost_${suffix}`,
          customerId: `cus_lost_${suffix}`,
          brand: "visa",
          last4: "4242",
          expMonth: 12,
          expYear: 2034,
          behaviour: "succeeds"
        })
        const session = {
          id: `cs_lost_${suffix}`,
          mode,
          bookingId,
          amountMinor: totalMinor,
          currency: "EUR",
          productName: "Jardinage",
          destinationAccountId: "acct_lost",
          applicationFeeMinor: 0,
          customerEmail: "client@example.com",
          cardholderName: null,
          successUrl: "http://127.0.0.1/ok",
          cancelUrl: "http://127.0.0.1/ko",
          status: "complete" as const,
          expiresAt: new Date(at.getTime() + DAY),
          customerId: `cus_lost_${suffix}`,
          paymentIntentId: null,
          setupIntentId: null,
          createdAt: at
        }
        if (mode === "setup") {
          yield* store.saveSetupIntent({
            id: `seti_lost_${suffix}`,
            bookingId,
            status: "succeeded",
            customerId: `cus_lost_${suffix}`,
            paymentMethodId: `pm_lost_${suffix}`,
            lastErrorCode: null,
            createdAt: at
          })
          yield* store.saveSession({ ...session, setupIntentId: `seti_lost_${suffix}` })
        } else {
          yield* store.saveIntent({
            id: `pi_lost_${suffix}`,
            bookingId,
            amountMinor: totalMinor,
            currency: "eur",
            status: "requires_capture",
            amountCapturable: totalMinor,
            amountReceived: 0,
            amountRefunded: 0,
            applicationFeeMinor: 0,
            destinationAccountId: "acct_lost",
            customerId: `cus_lost_${suffix}`,
            paymentMethodId: `pm_lost_${suffix}`,
            chargeId: `ch_lost_${suffix}`,
            captureBefore: new Date(at.getTime() + 7 * DAY),
            offSession: false,
            extendedAuthorization: "disabled",
            lastErrorCode: null,
            lastDeclineCode: null,
            createdAt: at
          })
          yield* store.saveSession({ ...session, paymentIntentId: `pi_lost_${suffix}` })
        }
        return `pi_lost_${suffix}`
      })
    )

  it("applies completed sessions the app never heard of: the hold and the saved card are recorded", async () => {
    const held = await book(1)
    const saved = await book(10)
    const intent = await paidWithoutDelivery(held.id, held.totalMinor, "payment")
    await paidWithoutDelivery(saved.id, saved.totalMinor, "setup")
    expect(await get(held.id)).toMatchObject({ paymentStatus: "UNPAID" })
    const report = await reconcile()
    expect(report.applied).toEqual(
      expect.arrayContaining([
        { bookingId: held.id, kind: "hold", reference: `reconcile:${intent}` },
        { bookingId: saved.id, kind: "card", reference: expect.stringContaining("reconcile:cs_lost_") }
      ])
    )
    expect(await get(held.id)).toMatchObject({ status: "PENDING", displayStatus: "PAID", paymentStatus: "AUTHORIZED" })
    expect(await get(saved.id)).toMatchObject({ status: "PENDING", displayStatus: "PAID", paymentStatus: "CARD_SAVED" })
    // A second run finds everything in order.
    const again = await reconcile()
    expect(again.applied.filter((a) => a.bookingId === held.id || a.bookingId === saved.id)).toEqual([])
  })

  it("releases a hold whose booking is over, and one of no booking at all", async () => {
    const booking = await book(1)
    expect((await api.call("DELETE", `/api/bookings/${booking.id}`, { token: client.token })).status).toBe(200)
    const late = await paidWithoutDelivery(booking.id, booking.totalMinor, "payment")
    const stranger = await paidWithoutDelivery("00000000-0000-4000-8000-000000000000", 5_000, "payment")
    const report = await reconcile()
    expect(report.released).toEqual(
      expect.arrayContaining([
        { bookingId: booking.id, paymentIntentId: late },
        { bookingId: null, paymentIntentId: stranger }
      ])
    )
    expect(await intentStatus(late)).toBe("canceled")
    expect(await intentStatus(stranger)).toBe("canceled")
    expect(await get(booking.id)).toMatchObject({ status: "CANCELLED", paymentStatus: "CANCELED" })
  })
})

describe("a booking's row lock and its payment operations", () => {
  /** A payment operation of the sandbox gateway in euros, with no fee, intent or method. */
  const sandboxOperation = (
    bookingId: string,
    kind: "FAILURE" | "REFUND",
    amountMinor: number,
    reference: string,
    detail: string | null
  ) => ({
    bookingId,
    gateway: "sandbox" as const,
    kind,
    amountMinor,
    currency: "EUR",
    feeMinor: 0,
    paymentIntentId: null,
    reference,
    paymentMethod: null,
    detail,
    refundStatus: kind === "REFUND" ? ("succeeded" as const) : null
  })
  it("a payment operation is recorded while another transaction holds the booking (a racing webhook and the service used to deadlock)", async () => {
    const booking = await book(2)
    const holding = server.run(
      Effect.flatMap(Transactional, (tx) =>
        tx.run(Effect.flatMap(BookingRepository, (bookings) => Effect.zipRight(bookings.lock(booking.id), Effect.sleep("1500 millis"))))
      )
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    const started = Date.now()
    await server.run(
      Effect.flatMap(Transactional, (tx) =>
        tx.run(
          Effect.flatMap(BookingRepository, (bookings) =>
            bookings.recordOperation(sandboxOperation(booking.id, "FAILURE", 0, `lock-test:${booking.id}`, "lock test"))
          )
        )
      )
    )
    // Recorded at once, not after the other transaction let the booking go.
    expect(Date.now() - started).toBeLessThan(1000)
    await holding
  })

  it("an operation recorded again stays one, and gains the reason its first record lacked (a refund's webhook before the admin's record)", async () => {
    const booking = await book(2)
    const record = (amountMinor: number, detail: string | null) =>
      server.run(
        Effect.flatMap(BookingRepository, (bookings) =>
          bookings.recordOperation(sandboxOperation(booking.id, "REFUND", amountMinor, `refund:re_${booking.id}`, detail))
        )
      )
    await record(700, null)
    await record(700, "Geste commercial")
    expect(await refundOperations(booking.id)).toEqual([[700, "Geste commercial"]])
    await record(700, "Autre motif")
    expect(await refundOperations(booking.id)).toEqual([[700, "Geste commercial"]])
  })
})

describe("refunds made outside the app", () => {
  it("a refund made in the gateway's dashboard is recorded once, beside the app's own, whatever the order of their events", async () => {
    const booking = await book(1)
    await payInSandbox(server, api, client.token, booking.id)
    await complete(booking)
    const { paymentIntentId } = await row(booking.id)
    const chargeRefunded = (totalRefundedMinor: number) =>
      stripeEvent(
        "charge.refunded",
        {
          id: `ch_${paymentIntentId}`,
          object: "charge",
          payment_intent: paymentIntentId,
          amount_refunded: totalRefundedMinor,
          metadata: { bookingId: booking.id }
        },
        { created: Math.floor(time.now().getTime() / 1000) }
      )
    const detail = async () => (await api.get(`/api/admin/bookings/${booking.id}`, { token: admin.token })).body.data.booking

    // Someone refunds 10.00 in the gateway's dashboard: the app hears of it by the charge's event only.
    await server.run(
      Effect.flatMap(ChargeGateway, (gateway) =>
        gateway.refund({ paymentIntentId: paymentIntentId!, amountMinor: 1_000, idempotencyKey: `dashboard:${booking.id}` })
      )
    )
    await deliver(chargeRefunded(1_000))
    await deliver(chargeRefunded(1_000))
    expect(await refundOperations(booking.id)).toEqual([[1_000, null]])
    expect(await detail()).toMatchObject({ paymentStatus: "PARTIALLY_REFUNDED", refundedMinor: 1_000 })

    // Then an admin refunds 5.00 with a reason; the gateway's event of it arrives after: one operation each.
    const refunded = await api.post(
      `/api/admin/bookings/${booking.id}/refund`,
      { amountMinor: 500, reason: "Geste commercial" },
      { token: admin.token }
    )
    expect(refunded.status, refunded.text).toBe(200)
    await deliver(chargeRefunded(1_500))
    expect(await refundOperations(booking.id)).toEqual([
      [1_000, null],
      [500, "Geste commercial"]
    ])
    const after = await detail()
    expect(after).toMatchObject({ refundedMinor: 1_500, refundableMinor: booking.totalMinor - 1_500 })
    expect(after.refunds.map((r: { amountMinor: number }) => r.amountMinor)).toEqual([1_000, 500])
  })
})
