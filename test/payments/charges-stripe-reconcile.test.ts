import type { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { StripeChargeGatewayLive } from "../../src/modules/payments/adapters/charges-stripe"
import { ChargeGateway, type CheckoutRequest } from "../../src/modules/payments/ports"
import { FAKE_HOLD_SECONDS, type FakeStripe, startFakeStripe } from "./fake-stripe"
import { checkoutOf, stripeAdapterOn } from "./stripe-mode"

/**
 * The Stripe adapter's calls for "one open checkout session per booking" and for reconciliation
 * (issue 10), against the local fake of Stripe's API: expiring a session, listing recent intents
 * (Stripe's list cannot filter by status) and completed sessions.
 */

const BOOKING = "6c1d7b63-8d2f-4b66-8e1f-3a4d2c1b0f22"
const chargeGatewayOn = (apiBase: string) => stripeAdapterOn(ChargeGateway, StripeChargeGatewayLive, apiBase)
let fake: FakeStripe
let gateway: ReturnType<typeof chargeGatewayOn>
const run = <A, E>(f: (gateway: ChargeGateway["Type"]) => Effect.Effect<A, E>) => gateway.run(f)

beforeAll(async () => {
  fake = await startFakeStripe()
  gateway = chargeGatewayOn(fake.url)
})
afterAll(async () => {
  await gateway?.dispose()
  await fake?.stop()
})

/** The booking's `n`-th checkout. */
const checkout = (n: number, mode: CheckoutRequest["mode"] = "authorize") =>
  checkoutOf(BOOKING, { mode, idempotencyKey: `booking:${BOOKING}:checkout:${n}` })

describe("Stripe: one open checkout session per booking", () => {
  it("expires an open session (POST /v1/checkout/sessions/:id/expire) and leaves a completed one alone", async () => {
    const open = await run((g) => g.createCheckoutSession(checkout(1)))
    const start = fake.requests.length
    expect(await run((g) => g.expireCheckoutSession(open.id))).toBe("expired")
    expect(fake.since(start).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/checkout/sessions/${open.id}`,
      `POST /v1/checkout/sessions/${open.id}/expire`
    ])
    expect(fake.sessions.get(open.id)?.status).toBe("expired")
    // Already expired: nothing more to do.
    expect(await run((g) => g.expireCheckoutSession(open.id))).toBe("expired")

    const paid = await run((g) => g.createCheckoutSession(checkout(2)))
    fake.sessions.get(paid.id)!.status = "complete"
    const before = fake.requests.length
    expect(await run((g) => g.expireCheckoutSession(paid.id))).toBe("complete")
    // Stripe refuses to expire a completed session: the adapter does not ask.
    expect(fake.since(before).map((r) => r.method)).toEqual(["GET"])
  })
})

describe("Stripe: the listings reconciliation reads", () => {
  it("open holds: recent intents filtered to requires_capture, with their booking, card and hold expiry", async () => {
    const authorize = (n: number, paymentMethod: string) =>
      run((g) =>
        g.authorizeOffSession({
          bookingId: BOOKING,
          amountMinor: 9_000,
          currency: "CAD",
          destinationAccountId: "acct_provider_1",
          applicationFeeMinor: 450,
          customerId: "cus_1",
          paymentMethodId: paymentMethod,
          idempotencyKey: `booking:${BOOKING}:authorize:${n}`
        })
      )
    const held = await authorize(1, "pm_card_visa")
    const released = await authorize(2, "pm_card_visa")
    if (held._tag !== "Authorized" || released._tag !== "Authorized") throw new Error("expected holds")
    await run((g) => g.cancelAuthorization({ paymentIntentId: released.paymentIntentId, idempotencyKey: "release:2" }))
    const since = new Date(Date.now() - 60_000)
    const start = fake.requests.length
    const holds = await run((g) => g.listOpenHolds(since))
    const [request] = fake.since(start)
    expect(request).toMatchObject({ method: "GET", path: "/v1/payment_intents" })
    expect(request!.form["created[gte]"]).toBe(String(Math.floor(since.getTime() / 1000)))
    expect(Object.entries(request!.form).some(([key, value]) => key.startsWith("expand[") && value === "data.latest_charge")).toBe(true)
    const ids = holds.map((h) => h.paymentIntentId)
    expect(ids).toContain(held.paymentIntentId)
    expect(ids).not.toContain(released.paymentIntentId)
    const hold = holds.find((h) => h.paymentIntentId === held.paymentIntentId)!
    expect(hold).toMatchObject({ bookingId: BOOKING, amountMinor: 9_000, customerId: "cus_1", paymentMethodId: "pm_card_visa" })
    expect(hold.expiresAt.getTime()).toBe((Math.floor(hold.createdAt.getTime() / 1000) + FAKE_HOLD_SECONDS) * 1000)
  })

  it("completed sessions: status=complete, created after the bound, the setup intent's card expanded", async () => {
    const setup = await run((g) => g.createCheckoutSession(checkout(3, "save_card")))
    const open = await run((g) => g.createCheckoutSession(checkout(4)))
    Object.assign(fake.sessions.get(setup.id)!, {
      status: "complete",
      customer: "cus_2",
      setup_intent: { id: "seti_1", object: "setup_intent", status: "succeeded", payment_method: "pm_saved" }
    })
    const start = fake.requests.length
    const completed = await run((g) => g.listCompletedCheckouts(new Date(Date.now() - 60_000)))
    expect(fake.since(start)[0]!.form.status).toBe("complete")
    expect(completed.map((c) => c.sessionId)).toContain(setup.id)
    expect(completed.map((c) => c.sessionId)).not.toContain(open.id)
    expect(completed.find((c) => c.sessionId === setup.id)).toMatchObject({
      bookingId: BOOKING,
      mode: "setup",
      customerId: "cus_2",
      paymentMethodId: "pm_saved",
      paymentIntentId: null
    })
  })
})
