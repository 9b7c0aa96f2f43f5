import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Bookings } from "../../src/modules/booking"
import { BookingRepository } from "../../src/modules/booking/ports"
import type { ChargeEvent } from "../../src/modules/payments"
import { SandboxCheckout } from "../../src/modules/payments/adapters/charges-sandbox"
import { bookableService, inMemoryDomain } from "../support/domain"
import { layer } from "../support/effect-layer"

// The end of a booking's hold as the gateway's reports arrive (issue 24, item 1): a known
// `capture_before` is never replaced by a fallback, and of two known ends the earlier is kept.

const HOUR_MS = 3_600_000

/** A booking its client paid in the sandbox; the hold not applied yet (the test reports it). */
const heldAtGateway = Effect.gen(function* () {
  const bookings = yield* Bookings
  const { client, service } = yield* bookableService()
  const start = Date.now() + 72 * HOUR_MS
  const booking = yield* bookings.request(client, {
    serviceId: service.id,
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + HOUR_MS).toISOString(),
    address: "3 quai de la Fosse, Nantes"
  })
  const session = yield* bookings.checkout(client, { bookingId: booking.id })
  const checkout = yield* SandboxCheckout
  expect((yield* checkout.pay(session.sessionId, { number: "4242424242424242", expiry: "12/34", cvc: "123" }))._tag).toBe("Completed")
  const paid = Option.getOrThrow(yield* checkout.find(session.sessionId)).session
  return { booking, paymentIntentId: paid.paymentIntentId!, customerId: paid.customerId }
})

/** A report of the hold, as the webhook hands it to bookings. */
const report = (
  held: Effect.Effect.Success<typeof heldAtGateway>,
  fields: { expiresAt: Date; expiryKnown: boolean; secondsLater: number }
): ChargeEvent => ({
  _tag: "PaymentAuthorized",
  bookingId: held.booking.id,
  paymentIntentId: held.paymentIntentId,
  amountMinor: held.booking.totalMinor,
  expiresAt: fields.expiresAt,
  expiryKnown: fields.expiryKnown,
  extendedAuthorization: false,
  customerId: held.customerId,
  paymentMethodId: null,
  paymentMethod: "visa •••• 4242",
  reference: `evt_${crypto.randomUUID()}`,
  occurredAt: new Date(Date.now() + fields.secondsLater * 1000)
})

const holdEndOf = (bookingId: string) =>
  Effect.map(
    Effect.flatMap(BookingRepository, (bookings) => bookings.findById(bookingId)),
    (found) => Option.getOrThrow(found).authorizationExpiresAt
  )

layer(inMemoryDomain(), { excludeTestServices: true })("a booking's hold end", (it) => {
  it.effect("keeps the known capture_before against a later fallback, and takes an earlier known end", () =>
    Effect.gen(function* () {
      const bookings = yield* Bookings
      const held = yield* heldAtGateway
      const known = new Date(Date.now() + (4 * 24 + 18) * HOUR_MS)
      yield* bookings.applyChargeEvent(report(held, { expiresAt: known, expiryKnown: true, secondsLater: 1 }))
      expect(yield* holdEndOf(held.booking.id)).toEqual(known)
      // The event that follows, its charge an id and the gateway silent: its fallback (7 days) changes nothing.
      yield* bookings.applyChargeEvent(
        report(held, { expiresAt: new Date(Date.now() + 7 * 24 * HOUR_MS), expiryKnown: false, secondsLater: 2 })
      )
      expect(yield* holdEndOf(held.booking.id)).toEqual(known)
      // A known later end does not extend it either; a known earlier one shortens it.
      yield* bookings.applyChargeEvent(
        report(held, { expiresAt: new Date(known.getTime() + 24 * HOUR_MS), expiryKnown: true, secondsLater: 3 })
      )
      expect(yield* holdEndOf(held.booking.id)).toEqual(known)
      const earlier = new Date(known.getTime() - HOUR_MS)
      yield* bookings.applyChargeEvent(report(held, { expiresAt: earlier, expiryKnown: true, secondsLater: 4 }))
      expect(yield* holdEndOf(held.booking.id)).toEqual(earlier)
    })
  )

  it.effect("takes a fallback when nothing is recorded yet, until the gateway says the real end", () =>
    Effect.gen(function* () {
      const bookings = yield* Bookings
      const held = yield* heldAtGateway
      const fallback = new Date(Date.now() + 7 * 24 * HOUR_MS)
      yield* bookings.applyChargeEvent(report(held, { expiresAt: fallback, expiryKnown: false, secondsLater: 1 }))
      expect(yield* holdEndOf(held.booking.id)).toEqual(fallback)
      const real = new Date(Date.now() + 6 * 24 * HOUR_MS)
      yield* bookings.applyChargeEvent(report(held, { expiresAt: real, expiryKnown: true, secondsLater: 2 }))
      expect(yield* holdEndOf(held.booking.id)).toEqual(real)
    })
  )
})
