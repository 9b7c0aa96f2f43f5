import { Effect, ManagedRuntime, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bookings } from "../../src/modules/booking"
import { ChargeGateway } from "../../src/modules/payments"
import { FAKE_CUSTOMER, type FakeStripe, startFakeStripe } from "../payments/fake-stripe"
import { bookableService, inMemoryDomain } from "../support/domain"
import { adjustableClock } from "../support/clock"
import type { RuntimeOf, ServicesOf } from "../support/layers"

/**
 * Reconciliation (issue 10) through the booking service with the Stripe adapter against the local fake
 * of Stripe's API: a hold a booking missed is applied, a second hold of the same booking is released
 * (POST /v1/payment_intents/:id/cancel), a hold of an unknown booking too; Stripe's list is read once.
 */

let fake: FakeStripe
let runtime: RuntimeOf<ReturnType<typeof inMemoryDomain>>
const time = adjustableClock()
const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof inMemoryDomain>>>): Promise<A> =>
  runtime.runPromise(Effect.withClock(effect, time.clock))

beforeAll(async () => {
  fake = await startFakeStripe()
  runtime = ManagedRuntime.make(
    inMemoryDomain({
      paymentsMode: "stripe",
      stripeSecretKey: Option.some(Redacted.make("sk_test_fake_key")),
      stripeWebhookSecret: Option.some(Redacted.make("whsec_reconcile")),
      stripeApiBase: Option.some(fake.url)
    })
  )
})
afterAll(async () => {
  await runtime?.dispose()
  await fake?.stop()
})

describe("payments:reconcile with Stripe (local fake)", () => {
  it("applies a missed hold, releases the booking's second hold and a hold of no booking", async () => {
    const { booking, client } = await run(
      Effect.gen(function* () {
        const { client: client_, service } = yield* bookableService({
          gateway: "stripe",
          accountId: () => "acct_fake_provider",
          service: { title: "Ménage", description: "Ménage complet à domicile.", price: 30, location: "Paris" }
        })
        const start = new Date(Date.now() + 2 * 24 * 3_600_000)
        start.setUTCSeconds(0, 0)
        const booking = yield* Effect.flatMap(Bookings, (b) =>
          b.request(client_, {
            serviceId: service.id,
            startTime: start.toISOString(),
            endTime: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
            address: "10 rue de Rivoli, Paris"
          })
        )
        return { booking, client: client_ }
      })
    )
    // Two holds of the booking (two tabs) and one of a booking that does not exist; no event reached the app.
    const hold = (bookingId: string, n: number) =>
      run(
        Effect.flatMap(ChargeGateway, (gateway) =>
          gateway.authorizeOffSession({
            bookingId,
            amountMinor: booking.totalMinor,
            currency: "EUR",
            destinationAccountId: "acct_fake_provider",
            applicationFeeMinor: 0,
            // A card attached to its customer, as Stripe requires off-session.
            customerId: FAKE_CUSTOMER,
            paymentMethodId: "pm_card_visa",
            idempotencyKey: `test:${bookingId}:${n}`
          })
        )
      ).then((result) => (result._tag === "Authorized" ? result.paymentIntentId : Promise.reject(new Error("not held"))))
    const first = await hold(booking.id, 1)
    const second = await hold(booking.id, 2)
    const stranger = await hold("7f3e2d1c-0b9a-4876-9543-210fedcba987", 3)

    time.advance(11 * 60_000)
    const start = fake.requests.length
    const report = await run(Effect.flatMap(Bookings, (b) => b.reconcile))
    expect(report.applied).toEqual([{ bookingId: booking.id, kind: "hold", reference: `reconcile:${first}` }])
    expect(report.released).toEqual(
      expect.arrayContaining([
        { bookingId: booking.id, paymentIntentId: second },
        { bookingId: null, paymentIntentId: stranger }
      ])
    )
    const calls = fake.since(start).map((r) => `${r.method} ${r.path}`)
    expect(calls).toContain("GET /v1/payment_intents")
    expect(calls).toContain("GET /v1/checkout/sessions")
    expect(calls).toContain(`POST /v1/payment_intents/${second}/cancel`)
    expect(calls).toContain(`POST /v1/payment_intents/${stranger}/cancel`)
    expect(calls).not.toContain(`POST /v1/payment_intents/${first}/cancel`)
    expect(fake.intents.get(first)?.status).toBe("requires_capture")
    const paid = await run(Effect.flatMap(Bookings, (b) => b.get(client, booking.id)))
    expect(paid).toMatchObject({ status: "PENDING", paymentStatus: "AUTHORIZED", paymentIntentId: first })
  }, 60_000)
})
