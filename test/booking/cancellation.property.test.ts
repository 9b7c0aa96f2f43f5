import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type Actor,
  type BookingState,
  type CancellationPolicy,
  commissionOf,
  freeCancellationUntil,
  lateCancellationFee,
  newBooking,
  SystemActor,
  transition
} from "../../src/modules/booking/domain"
import { DAY, HOUR, MINUTE } from "../support/durations"

/**
 * The cancellation policy (issue 13 item 2) as the transition function applies it: a client's late
 * cancellation of a confirmed booking captures feePercent of the total (rounded down) from the hold, the
 * gateway releasing the rest; before the window, without a hold, for a request not confirmed yet, or by
 * the provider or an administrator, everything is released and nothing captured.
 */

const T0 = Date.parse("2026-03-01T09:00:00Z")

const client: Actor = { _tag: "User", id: "u-client", role: "CLIENT" }
const provider: Actor = { _tag: "User", id: "u-provider", role: "PROVIDER" }
const admin: Actor = { _tag: "User", id: "u-admin", role: "ADMIN" }

const base = (totalMinutes: number, hourlyPriceMinor: number, leadMs: number): BookingState =>
  newBooking(
    { id: "b-1", clientId: "u-client", providerId: "u-provider", hourlyPriceMinor, currency: "EUR" },
    {
      serviceId: "s-1",
      startTime: new Date(T0 + leadMs),
      endTime: new Date(T0 + leadMs + totalMinutes * MINUTE),
      minutes: totalMinutes,
      address: "12 rue des Lilas",
      notes: ""
    },
    new Date(T0)
  )

const booking = fc
  .record({
    minutes: fc.integer({ min: 15, max: 600 }),
    hourlyPriceMinor: fc.integer({ min: 60, max: 50_000_000 }),
    leadMs: fc.integer({ min: HOUR, max: 20 * DAY }),
    status: fc.constantFrom("PENDING" as const, "CONFIRMED" as const),
    payment: fc.constantFrom(
      "UNPAID" as const,
      "CARD_SAVED" as const,
      "REQUIRES_ACTION" as const,
      "AUTHORIZED" as const,
      "AUTHORIZED" as const,
      "SHORT" as const
    ),
    extraHeld: fc.integer({ min: 0, max: 500 })
  })
  .map(({ extraHeld, hourlyPriceMinor, leadMs, minutes, payment, status }): BookingState => {
    const b = base(minutes, hourlyPriceMinor, leadMs)
    const authorizedMinor = payment === "AUTHORIZED" ? b.totalMinor + extraHeld : payment === "SHORT" ? Math.max(1, b.totalMinor - 1) : 0
    return {
      ...b,
      status,
      paymentStatus: payment === "SHORT" ? "AUTHORIZED" : payment,
      authorizedMinor,
      holdExpiresAt: null,
      authorizationExpiresAt: authorizedMinor > 0 ? new Date(T0 + 7 * DAY) : null
    }
  })
const policy: fc.Arbitrary<CancellationPolicy> = fc.record({
  freeHours: fc.oneof(fc.constant(48), fc.integer({ min: 0, max: 24 * 30 })),
  feePercent: fc.oneof(fc.constant(50), fc.integer({ min: 0, max: 100 }))
})
/** When the cancellation happens: any time before the start. */
const cancelAt = (b: BookingState, fraction: number) => new Date(T0 + Math.floor((b.startTime.getTime() - 1 - T0) * fraction))

describe("the cancellation policy in the transition function", () => {
  it("the fee never exceeds what is held, is feePercent of the total rounded down, and is captured only for a client's late cancellation of a confirmed booking", () => {
    fc.assert(
      fc.property(booking, policy, fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(client, provider, admin), (b, p, f, who) => {
        const now = cancelAt(b, f)
        const result = transition(b, { _tag: "Cancel", policy: p }, who, now)
        expect(Either.isRight(result)).toBe(true)
        if (Either.isLeft(result)) return
        const { effects, next } = result.right
        const captures = effects.filter((e) => e._tag === "Capture")
        const late = now.getTime() >= b.startTime.getTime() - p.freeHours * HOUR
        const held = b.paymentStatus === "AUTHORIZED" && b.authorizedMinor >= b.totalMinor
        const fee = Math.floor((b.totalMinor * p.feePercent) / 100)
        expect(next.status).toBe("CANCELLED")
        if (who === client && b.status === "CONFIRMED" && held && late && fee > 0) {
          expect(captures).toEqual([{ _tag: "Capture", amountMinor: fee }])
          expect(next.cancellationFeeMinor).toBe(fee)
          expect(fee).toBeLessThanOrEqual(b.authorizedMinor)
          expect(fee).toBeLessThanOrEqual(b.totalMinor)
          // The hold stays until the gateway answers the capture (it releases the rest with it).
          expect(next.paymentStatus).toBe("AUTHORIZED")
          expect(effects.some((e) => e._tag === "ReleaseAuthorization")).toBe(false)
        } else {
          // Free: nothing captured, any hold released.
          expect(captures).toEqual([])
          expect(next.cancellationFeeMinor).toBe(0)
          expect(effects.some((e) => e._tag === "ReleaseAuthorization")).toBe(b.paymentStatus === "AUTHORIZED")
        }
        // What the views announce is what the transition does.
        if (who === client) expect(lateCancellationFee(b, p, now)).toBe(next.cancellationFeeMinor)
        // Before freeUntil, always free.
        if (now.getTime() < freeCancellationUntil(b, p).getTime()) expect(next.cancellationFeeMinor).toBe(0)
      }),
      { numRuns: 2000 }
    )
  })

  it("with the fee the client was shown: a higher fee is refused (409, nothing changes), any fee up to it cancels as without", () => {
    fc.assert(
      fc.property(
        booking,
        policy,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 60_000 }),
        (b, p, f, shownMinor) => {
          const now = cancelAt(b, f)
          const fee = lateCancellationFee(b, p, now)
          const accepted = transition(b, { _tag: "Cancel", policy: p, acceptedFeeMinor: shownMinor }, client, now)
          const without = transition(b, { _tag: "Cancel", policy: p }, client, now)
          if (fee > shownMinor) {
            expect(Either.isLeft(accepted)).toBe(true)
            if (Either.isLeft(accepted)) expect(accepted.left).toMatchObject({ _tag: "Conflict", code: "CANCELLATION_FEE_CHANGED" })
          } else {
            expect(accepted).toEqual(without)
          }
        }
      ),
      { numRuns: 1000 }
    )
  })

  it("the gateway's capture of the fee lands in the cancelled booking (at most the fee), with a 5% commission on it", () => {
    fc.assert(
      fc.property(booking, policy, fc.integer({ min: -3, max: 3 }), (b0, p, delta) => {
        const b = { ...b0, status: "CONFIRMED" as const, paymentStatus: "AUTHORIZED" as const, authorizedMinor: b0.totalMinor }
        // Late (the first instant of the window), still before the start.
        const now = new Date(Math.min(b.startTime.getTime() - p.freeHours * HOUR, b.startTime.getTime() - 1))
        const cancelled = transition(b, { _tag: "Cancel", policy: p }, client, now)
        if (Either.isLeft(cancelled)) throw new Error("cancel refused")
        const fee = cancelled.right.next.cancellationFeeMinor
        const answer = transition(cancelled.right.next, { _tag: "PaymentCaptured", amountMinor: fee + delta }, SystemActor, now)
        if (fee === 0) {
          // A free cancellation admits no capture at all.
          expect(Either.isLeft(answer)).toBe(true)
          return
        }
        if (delta > 0 || fee + delta <= 0) expect(Either.isLeft(answer)).toBe(true)
        else {
          if (Either.isLeft(answer)) throw new Error("capture refused")
          expect(answer.right.next).toMatchObject({ status: "CANCELLED", paymentStatus: "CAPTURED", capturedMinor: fee + delta })
        }
        // The platform keeps 5% of what is captured, rounded to the minor unit, never more than the fee.
        expect(commissionOf(fee)).toBe(Math.round((fee * 5) / 100))
        expect(commissionOf(fee)).toBeLessThanOrEqual(fee)
      }),
      { numRuns: 1000 }
    )
  })

  it("35,00 € of a 70,00 € booking cancelled a day before; free two days and a minute before", () => {
    const b = { ...base(105, 4_000, 3 * DAY), status: "CONFIRMED" as const, paymentStatus: "AUTHORIZED" as const, authorizedMinor: 7_000 }
    const p = { freeHours: 48, feePercent: 50 }
    expect(b.totalMinor).toBe(7_000)
    expect(freeCancellationUntil(b, p)).toEqual(new Date(b.startTime.getTime() - 2 * DAY))
    expect(lateCancellationFee(b, p, new Date(b.startTime.getTime() - 2 * DAY - MINUTE))).toBe(0)
    expect(lateCancellationFee(b, p, new Date(b.startTime.getTime() - 2 * DAY))).toBe(3_500)
    const late = transition(b, { _tag: "Cancel", policy: p }, client, new Date(b.startTime.getTime() - DAY))
    expect(Either.getOrThrow(late).effects).toEqual([
      { _tag: "Capture", amountMinor: 3_500 },
      { _tag: "Notify", event: "cancelled" }
    ])
    // The same cancellation by the provider releases everything.
    const byProvider = Either.getOrThrow(transition(b, { _tag: "Cancel", policy: p }, provider, new Date(b.startTime.getTime() - DAY)))
    expect(byProvider.effects).toEqual([{ _tag: "ReleaseAuthorization" }, { _tag: "Notify", event: "cancelled" }])
    // An odd total rounds the fee down: 33 of 67.
    expect(lateCancellationFee({ ...b, totalMinor: 67, authorizedMinor: 67 }, p, b.startTime)).toBe(33)
  })
})
