import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { paymentTimeline } from "../../src/modules/booking/payment-timeline"

// A booking's payment timeline (issue 23, items 4 and 5) against random operation histories: one event
// per operation, in time order, amounts as recorded, the hold's card carried to what acted on it.

const BASE = Date.UTC(2026, 5, 1)
const KINDS = ["AUTHORIZATION", "CARD_SAVED", "CAPTURE", "CANCELLATION", "REFUND", "FAILURE"] as const

const operation = fc.record({
  kind: fc.constantFrom(...KINDS),
  amountMinor: fc.integer({ min: 0, max: 1_000_000 }),
  feeMinor: fc.integer({ min: 0, max: 50_000 }),
  currency: fc.constant("CAD"),
  paymentIntentId: fc.option(fc.constantFrom("pi_1", "pi_2", "pi_3"), { nil: null }),
  paymentMethod: fc.option(fc.constantFrom("visa •••• 4242", "mastercard •••• 4444", "card"), { nil: null }),
  createdAt: fc.integer({ min: 0, max: 30 }).map((minutes) => new Date(BASE + minutes * 60_000))
})

describe("a booking's payment timeline", () => {
  it("has one event per operation, oldest first, each with the amount the operation recorded", () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 12 }),
        fc.constantFrom("client" as const, "provider" as const, "admin" as const),
        (ops, reader) => {
          const events = paymentTimeline(ops, reader)
          expect(events).toHaveLength(ops.length)
          for (let i = 1; i < events.length; i++) expect(events[i]!.at.getTime()).toBeGreaterThanOrEqual(events[i - 1]!.at.getTime())
          const total = (kind: (typeof KINDS)[number]) => ops.filter((o) => o.kind === kind).reduce((sum, o) => sum + o.amountMinor, 0)
          const totalOf = (event: string) => events.filter((e) => e.event === event).reduce((sum, e) => sum + e.amountMinor, 0)
          expect(totalOf("captured")).toBe(total("CAPTURE"))
          expect(totalOf("refunded")).toBe(total("REFUND"))
          expect(totalOf("held") + totalOf("renewed")).toBe(total("AUTHORIZATION"))
          // At most one first hold; every later authorisation is a renewal.
          expect(events.filter((e) => e.event === "held").length).toBe(Math.min(1, ops.filter((o) => o.kind === "AUTHORIZATION").length))
          // The client is never shown the commission; the provider and the admin are, as recorded.
          if (reader === "client") expect(events.every((e) => e.feeMinor === null)).toBe(true)
          else expect(events.map((e) => e.feeMinor ?? 0).reduce((a, b) => a + b, 0)).toBe(ops.reduce((a, o) => a + o.feeMinor, 0))
          // An operation that named its method keeps it.
          const named = [...ops].map((o, i) => ({ o, i })).sort((a, b) => a.o.createdAt.getTime() - b.o.createdAt.getTime() || a.i - b.i)
          named.forEach(({ o }, position) => {
            if (o.paymentMethod !== null) expect(events[position]!.method).toBe(o.paymentMethod)
          })
        }
      )
    )
  })

  it("after a partial capture reads 60 held and 20 charged, never 60 charged; the capture names the hold's card", () => {
    const at = (minutes: number) => new Date(BASE + minutes * 60_000)
    const events = paymentTimeline(
      [
        {
          kind: "AUTHORIZATION",
          amountMinor: 6000,
          feeMinor: 0,
          currency: "CAD",
          paymentIntentId: "pi_1",
          paymentMethod: "visa •••• 4242",
          createdAt: at(0)
        },
        {
          kind: "CAPTURE",
          amountMinor: 2000,
          feeMinor: 100,
          currency: "CAD",
          paymentIntentId: "pi_1",
          paymentMethod: null,
          createdAt: at(5)
        }
      ],
      "admin"
    )
    expect(events.map((e) => [e.event, e.amountMinor, e.method, e.feeMinor])).toEqual([
      ["held", 6000, "visa •••• 4242", 0],
      ["captured", 2000, "visa •••• 4242", 100]
    ])
  })

  it("names a second authorisation a renewal, and its release a release", () => {
    const at = (minutes: number) => new Date(BASE + minutes * 60_000)
    const op = (kind: (typeof KINDS)[number], minutes: number, intent: string) => ({
      kind,
      amountMinor: 5000,
      feeMinor: 0,
      currency: "EUR",
      paymentIntentId: intent,
      paymentMethod: null,
      createdAt: at(minutes)
    })
    const events = paymentTimeline(
      [op("AUTHORIZATION", 0, "pi_1"), op("CANCELLATION", 10, "pi_1"), op("AUTHORIZATION", 10, "pi_2")],
      "client"
    )
    expect(events.map((e) => e.event)).toEqual(["held", "released", "renewed"])
  })

  it("reads a refund the gateway failed or canceled as failed, a pending or succeeded one as a refund", () => {
    const at = (minutes: number) => new Date(BASE + minutes * 60_000)
    const refund = (minutes: number, refundStatus: "pending" | "succeeded" | "failed" | "canceled") => ({
      kind: "REFUND" as const,
      amountMinor: 1000,
      feeMinor: 50,
      currency: "CAD",
      paymentIntentId: "pi_1",
      paymentMethod: null,
      refundStatus,
      createdAt: at(minutes)
    })
    const events = paymentTimeline([refund(1, "pending"), refund(2, "succeeded"), refund(3, "failed"), refund(4, "canceled")], "admin")
    expect(events.map((e) => e.event)).toEqual(["refunded", "refunded", "refundFailed", "refundFailed"])
  })
})
