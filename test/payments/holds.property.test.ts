import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  CUSTOMER_INITIATED_HOLD_MS,
  EXTENDED_HOLD_MS,
  fallbackHoldEnd,
  holdWindowMs,
  initiatorOf,
  keptHoldEnd,
  MERCHANT_INITIATED_HOLD_MS
} from "../../src/modules/payments/holds"

// How long a card hold lasts (payments/holds.ts): the windows by network and initiator, the fallback
// when the gateway names no capture_before, and which end a booking keeps when reports disagree.

const date = fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
const report = fc.record({ expiresAt: date, known: fc.boolean() })

describe("hold windows", () => {
  it("follow the network and the initiator: Visa off-session 4 d 18 h, 7 days otherwise, 30 days where Mastercard extends", () => {
    expect(MERCHANT_INITIATED_HOLD_MS).toBe((4 * 24 + 18) * 3_600_000)
    expect(holdWindowMs("visa", "merchant", true)).toBe(MERCHANT_INITIATED_HOLD_MS)
    expect(holdWindowMs("visa", "customer", true)).toBe(CUSTOMER_INITIATED_HOLD_MS)
    expect(holdWindowMs("mastercard", "merchant", true)).toBe(EXTENDED_HOLD_MS)
    expect(holdWindowMs("mastercard", "customer", false)).toBe(CUSTOMER_INITIATED_HOLD_MS)
    expect(holdWindowMs("amex", "merchant", false)).toBe(CUSTOMER_INITIATED_HOLD_MS)
  })

  it("fall back to the shortest the initiator allows: never later than any real window of that initiator", () => {
    fc.assert(
      fc.property(
        date,
        fc.constantFrom("visa", "mastercard", "amex"),
        fc.constantFrom("customer", "merchant"),
        fc.boolean(),
        (at, brand, initiator, extended) => {
          const fallback = fallbackHoldEnd(initiator as "customer" | "merchant", at).getTime()
          expect(fallback).toBeLessThanOrEqual(at.getTime() + holdWindowMs(brand, initiator as "customer" | "merchant", extended))
        }
      )
    )
    expect(initiatorOf({ bookingId: "b", initiator: "merchant" })).toBe("merchant")
    expect(initiatorOf({ bookingId: "b" })).toBe("customer")
    expect(initiatorOf(null)).toBe("customer")
  })
})

describe("the end a booking keeps for its hold", () => {
  it("is never a fallback where a known end is recorded, never later than a known report, and the report's when nothing is recorded", () => {
    fc.assert(
      fc.property(fc.option(date, { nil: null }), report, (stored, reported) => {
        const kept = keptHoldEnd(stored, reported)
        if (stored === null) expect(kept).toEqual(reported.expiresAt)
        else if (!reported.known) expect(kept).toEqual(stored)
        else {
          expect(kept.getTime()).toBeLessThanOrEqual(stored.getTime())
          expect(kept.getTime()).toBeLessThanOrEqual(reported.expiresAt.getTime())
          expect([stored.getTime(), reported.expiresAt.getTime()]).toContain(kept.getTime())
        }
      })
    )
  })

  it("does not depend on how many times, or in which order, the same reports arrive", () => {
    fc.assert(
      fc.property(date, fc.array(report, { maxLength: 6 }), (first, reports) => {
        const fold = (list: ReadonlyArray<(typeof reports)[number]>) => list.reduce((end, r) => keptHoldEnd(end, r), first)
        expect(fold([...reports, ...reports])).toEqual(fold(reports))
        expect(fold([...reports].reverse())).toEqual(fold(reports))
      })
    )
  })
})
