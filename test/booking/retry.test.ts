import { Context, Deferred, Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bookings, BookingsLive } from "../../src/modules/booking"
import { ChargeGateway, PaymentGatewayError } from "../../src/modules/payments"
import { SandboxCheckout } from "../../src/modules/payments/adapters/charges-sandbox"
import { actorOf, bookableService, inMemoryDomain, verifiedAccount } from "../support/domain"

/**
 * The in-memory domain with a second booking service whose gateway fails its next captures on
 * demand (an outage of the payment provider), and can hold refunds until two are in flight (two
 * administrators refunding at once), sharing every store with the domain.
 */
const outage = { capturesToFail: 0, attempts: 0 }
const refunds = { inFlight: 0, hold: undefined as Deferred.Deferred<void> | undefined }
class FlakyBookings extends Context.Tag("test/FlakyBookings")<FlakyBookings, Bookings["Type"]>() {}
const base = inMemoryDomain()
const FlakyGateway = Layer.effect(
  ChargeGateway,
  Effect.map(ChargeGateway, (gateway) => ({
    ...gateway,
    capture: (input: Parameters<typeof gateway.capture>[0]) =>
      Effect.suspend(() => {
        outage.attempts++
        return outage.capturesToFail-- > 0
          ? Effect.fail(new PaymentGatewayError({ operation: "paymentIntents.capture", detail: "api_error (outage)" }))
          : gateway.capture(input)
      }),
    refund: (input: Parameters<typeof gateway.refund>[0]) =>
      Effect.suspend(() => {
        const hold = refunds.hold
        if (hold === undefined) return gateway.refund(input)
        refunds.inFlight++
        return Effect.zipRight(refunds.inFlight >= 2 ? Deferred.succeed(hold, undefined) : Deferred.await(hold), gateway.refund(input))
      })
  }))
).pipe(Layer.provide(base))
// The flaky gateway comes last: it replaces the domain's for the second booking service.
// Layer.fresh: BookingsLive is also inside `base`, and layers are shared by reference within a build.
const layer = Layer.merge(
  base,
  Layer.effect(FlakyBookings, Bookings).pipe(Layer.provide(Layer.fresh(BookingsLive).pipe(Layer.provide(Layer.merge(base, FlakyGateway)))))
)

let runtime: ManagedRuntime.ManagedRuntime<Layer.Layer.Success<typeof layer>, unknown>
beforeAll(() => {
  runtime = ManagedRuntime.make(layer)
})
afterAll(() => runtime.dispose())

/** A booking paid in the sandbox (its authorisation applied as the webhook would), confirmed and rendered. */
const renderedBooking = Effect.gen(function* () {
  const bookings = yield* FlakyBookings
  const { provider: provider_, client: client_, service } = yield* bookableService()
  // Starts in a moment: "service rendered" is accepted only once the booking has started.
  const start = new Date(Date.now() + 1_500)
  const booking = yield* bookings.request(client_, {
    serviceId: service.id,
    startTime: start.toISOString(),
    endTime: new Date(start.getTime() + 3_600_000).toISOString(),
    address: "3 quai de la Fosse, Nantes"
  })
  const session = yield* bookings.checkout(client_, { bookingId: booking.id })
  const checkout = yield* SandboxCheckout
  expect((yield* checkout.pay(session.sessionId, { number: "4242424242424242", expiry: "12/34", cvc: "123" }))._tag).toBe("Completed")
  const paid = Option.getOrThrow(yield* checkout.find(session.sessionId)).session
  yield* bookings.applyChargeEvent({
    _tag: "PaymentAuthorized",
    bookingId: booking.id,
    paymentIntentId: paid.paymentIntentId!,
    amountMinor: booking.totalMinor,
    expiresAt: new Date(Date.now() + 7 * 24 * 3_600_000),
    expiryKnown: true,
    extendedAuthorization: false,
    customerId: paid.customerId,
    paymentMethodId: null,
    paymentMethod: "card",
    reference: `evt_${booking.id}`,
    occurredAt: new Date()
  })
  yield* bookings.act(provider_, booking.id, { _tag: "Confirm" })
  yield* Effect.sleep(Math.max(0, start.getTime() - Date.now()) + 50)
  yield* bookings.act(provider_, booking.id, { _tag: "MarkRendered" })
  return { bookings, booking, client_ }
})

describe("a capture that fails", () => {
  it("is retried until the gateway answers, and the money is captured once", async () => {
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const { bookings, booking, client_ } = yield* renderedBooking
        // The provider's gateway is down for the next two captures.
        outage.capturesToFail = 2
        outage.attempts = 0
        const completed = yield* bookings.act(client_, booking.id, { _tag: "ConfirmCompletion", rating: 5, comment: "Parfait" })
        const afterFirst = { status: completed.status, paymentStatus: completed.paymentStatus }
        yield* bookings.sweep
        const afterSecond = Option.getOrThrow(yield* bookings.get(client_, booking.id).pipe(Effect.option)).paymentStatus
        yield* bookings.sweep
        const final = yield* bookings.get(client_, booking.id)
        yield* bookings.sweep
        return { afterFirst, afterSecond, final, total: booking.totalMinor }
      })
    )
    expect(result.afterFirst).toEqual({ status: "COMPLETED", paymentStatus: "AUTHORIZED" })
    expect(result.afterSecond).toBe("AUTHORIZED")
    expect(result.final).toMatchObject({ status: "COMPLETED", paymentStatus: "CAPTURED", capturedMinor: result.total })
    // Two failures, one success, and nothing more once captured.
    expect(outage.attempts).toBe(3)
  })
})

describe("two refunds of one booking at once", () => {
  it("record both: the booking takes the gateway's refunded total, not its own stale sum", async () => {
    const final = await runtime.runPromise(
      Effect.gen(function* () {
        const { bookings, booking, client_ } = yield* renderedBooking
        yield* bookings.act(client_, booking.id, { _tag: "ConfirmCompletion", rating: 5, comment: "Parfait" })
        const admin = actorOf((yield* verifiedAccount()).user, "ADMIN")
        // Both refunds are decided on the same stored state, then reach the gateway together.
        refunds.hold = yield* Deferred.make<void>()
        refunds.inFlight = 0
        yield* Effect.all(
          [
            bookings.act(admin, booking.id, { _tag: "Refund", amountMinor: 1_000 }),
            bookings.act(admin, booking.id, { _tag: "Refund", amountMinor: 2_500 })
          ],
          { concurrency: 2 }
        )
        refunds.hold = undefined
        return yield* bookings.get(client_, booking.id)
      })
    )
    expect(final).toMatchObject({ paymentStatus: "PARTIALLY_REFUNDED", refundedMinor: 3_500 })
  })
})
