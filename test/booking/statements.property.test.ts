import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { csv } from "../../src/platform/csv"
import { currencyDecimals } from "../../src/platform/money"
import { commissionOf } from "../../src/modules/booking/domain"
import {
  EARNINGS_CSV_HEADER,
  type EarningSource,
  earningLine,
  earningLines,
  earningsCsvRows,
  earningTotals,
  receiptFigures,
  receiptIdPattern,
  receiptNumber
} from "../../src/modules/booking/statements"
import { parseCsv } from "../administration/csv"
import { DAY } from "../support/durations"

// Receipts' and earnings' figures (issue 13, item 5) against sums computed here, independently, from
// random payment histories: a capture, partial refunds within it, in several currencies and months.

const BASE = Date.UTC(2026, 0, 1)

/** One booking's payment history as the settlement records it. */
const history = fc
  .record({
    currency: fc.constantFrom("EUR", "CAD", "JPY", "USD"),
    captured: fc.integer({ min: 1, max: 5_000_000 }),
    refundShares: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
    capturedDay: fc.integer({ min: 0, max: 400 }),
    startDay: fc.integer({ min: 0, max: 400 }),
    held: fc.boolean(),
    total: fc.integer({ min: 1, max: 5_000_000 })
  })
  .map((h) => {
    // Refunds never exceed what is left of the capture (the gateway refuses the rest).
    let left = h.captured
    const refunds: Array<number> = []
    for (const share of h.refundShares) {
      const amount = Math.min(left, Math.max(1, Math.floor(share * h.captured)))
      if (amount <= 0) break
      refunds.push(amount)
      left -= amount
    }
    return { ...h, refunds }
  })

type History = typeof history extends fc.Arbitrary<infer T> ? T : never

const operationsOf = (h: History) => [
  { kind: "AUTHORIZATION" as const, amountMinor: h.captured, feeMinor: 0, createdAt: new Date(BASE + h.capturedDay * DAY - 3_600_000) },
  {
    kind: "CAPTURE" as const,
    amountMinor: h.captured,
    feeMinor: commissionOf(h.captured),
    createdAt: new Date(BASE + h.capturedDay * DAY)
  },
  ...h.refunds.map((amount, i) => ({
    kind: "REFUND" as const,
    amountMinor: amount,
    feeMinor: commissionOf(amount),
    createdAt: new Date(BASE + (h.capturedDay + i + 1) * DAY)
  }))
]

const sourceOf = (h: History, index: number): EarningSource => {
  const booking = {
    bookingId: `b${String(index).padStart(4, "0")}`,
    serviceTitle: "Cours",
    clientFirstName: "Ana",
    clientLastName: "Lima",
    startTime: new Date(BASE + h.startDay * DAY),
    currency: h.currency
  }
  return h.held
    ? {
        ...booking,
        paymentStatus: "AUTHORIZED",
        totalMinor: h.total,
        authorizedMinor: h.captured,
        capturedMinor: 0,
        refundedMinor: 0,
        capturedAt: null,
        authorizedAt: new Date(BASE + h.capturedDay * DAY)
      }
    : {
        ...booking,
        paymentStatus: "CAPTURED",
        totalMinor: h.captured,
        authorizedMinor: 0,
        capturedMinor: h.captured,
        refundedMinor: h.refunds.reduce((a, b) => a + b, 0),
        capturedAt: new Date(BASE + h.capturedDay * DAY),
        authorizedAt: null
      }
}

describe("receipt figures", () => {
  it("leave out a refund the gateway failed or canceled (it gave nothing back), whatever its amount and date", () => {
    fc.assert(
      fc.property(
        history,
        fc.array(
          fc.record({
            amount: fc.integer({ min: 1, max: 5_000_000 }),
            day: fc.integer({ min: 0, max: 30 }),
            status: fc.constantFrom("failed" as const, "canceled" as const)
          }),
          { minLength: 1, maxLength: 3 }
        ),
        (h, failed) => {
          const ops = operationsOf(h)
          const withFailed = [
            ...ops,
            ...failed.map((f) => ({
              kind: "REFUND" as const,
              amountMinor: f.amount,
              feeMinor: commissionOf(f.amount),
              refundStatus: f.status,
              createdAt: new Date(BASE + (h.capturedDay + f.day) * DAY)
            }))
          ]
          expect(receiptFigures(withFailed)).toEqual(receiptFigures(ops))
        }
      )
    )
  })

  it("paid = the captures, refunds listed oldest first, net paid = paid − refunded; none before a capture", () => {
    fc.assert(
      fc.property(history, (h) => {
        const ops = operationsOf(h)
        expect(receiptFigures(ops.filter((o) => o.kind !== "CAPTURE"))).toBeUndefined()
        const figures = receiptFigures([...ops].reverse())!
        const refunded = h.refunds.reduce((a, b) => a + b, 0)
        expect(figures.paidMinor).toBe(h.captured)
        expect(figures.paidAt.getTime()).toBe(BASE + h.capturedDay * DAY)
        expect(figures.refunds.map((r) => r.amountMinor)).toEqual(h.refunds)
        expect(figures.refundedMinor).toBe(refunded)
        expect(figures.netPaidMinor).toBe(h.captured - refunded)
        expect(figures.netPaidMinor).toBeGreaterThanOrEqual(0)
      })
    )
  })
})

describe("earnings", () => {
  it("per booking: gross = captured − refunded, commission = 5% of the gross, net = gross − commission, all exact integers", () => {
    fc.assert(
      fc.property(history, (h) => {
        const line = earningLine(sourceOf(h, 0), "America/Montreal")!
        const refunded = h.refunds.reduce((a, b) => a + b, 0)
        const gross = h.held ? Math.min(h.total, h.captured) : h.captured - refunded
        expect(line.grossMinor).toBe(gross)
        expect(line.commissionMinor).toBe(Math.round((gross * 5) / 100))
        expect(line.netMinor).toBe(line.grossMinor - line.commissionMinor)
        for (const figure of [line.grossMinor, line.commissionMinor, line.netMinor]) expect(Number.isInteger(figure)).toBe(true)
        expect(line.commissionMinor).toBeGreaterThanOrEqual(0)
        expect(line.commissionMinor).toBeLessThanOrEqual(line.grossMinor)
        expect(line.state).toBe(h.held ? "HELD" : refunded === 0 ? "CAPTURED" : refunded === h.captured ? "REFUNDED" : "PARTIALLY_REFUNDED")
      })
    )
  })

  it("a booking that holds no money and had none captured has no line", () => {
    const base = sourceOf(
      { held: false, captured: 1, refunds: [], refundShares: [], currency: "EUR", capturedDay: 0, startDay: 0, total: 1 },
      0
    )
    expect(earningLine({ ...base, capturedMinor: 0, capturedAt: null, paymentStatus: "CANCELED" }, "UTC")).toBeUndefined()
    expect(
      earningLine({ ...base, capturedMinor: 0, capturedAt: null, paymentStatus: "AUTHORIZED", authorizedMinor: 0 }, "UTC")
    ).toBeUndefined()
  })

  it("totals per currency and per month equal the sums of the lines, held money apart, currencies never mixed", () => {
    fc.assert(
      fc.property(fc.array(history, { maxLength: 30 }), fc.constantFrom("UTC", "America/Montreal", "Asia/Tokyo"), (histories, zone) => {
        const lines = earningLines(
          histories.map((h, i) => sourceOf(h, i)),
          zone
        )
        const totals = earningTotals(lines)
        // Independent sums, keyed by currency and by (month, currency).
        const expected = new Map<string, { gross: number; commission: number; net: number; held: number; count: number }>()
        const bump = (key: string, h: (typeof histories)[number], line: (typeof lines)[number]) => {
          const t = expected.get(key) ?? { gross: 0, commission: 0, net: 0, held: 0, count: 0 }
          if (line.state === "HELD") t.held += line.grossMinor
          else {
            const refunded = h.refunds.reduce((a, b) => a + b, 0)
            t.gross += h.captured - refunded
            t.commission += commissionOf(h.captured - refunded)
            t.net += h.captured - refunded - commissionOf(h.captured - refunded)
          }
          t.count += 1
          expected.set(key, t)
        }
        histories.forEach((h, i) => {
          const line = lines.find((l) => l.bookingId === `b${String(i).padStart(4, "0")}`)!
          // The month is the money's date in the provider's zone.
          const date = new Date(BASE + h.capturedDay * DAY)
          const month = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit" }).format(date).slice(0, 7)
          expect(line.month).toBe(month)
          bump(h.currency, h, line)
          bump(`${month} ${h.currency}`, h, line)
        })
        const shape = (t: { grossMinor: number; commissionMinor: number; netMinor: number; heldMinor: number; bookings: number }) => ({
          gross: t.grossMinor,
          commission: t.commissionMinor,
          net: t.netMinor,
          held: t.heldMinor,
          count: t.bookings
        })
        expect(new Map(totals.byCurrency.map((t) => [t.currency, shape(t)]))).toEqual(
          new Map([...expected].filter(([key]) => !key.includes(" ")))
        )
        expect(new Map(totals.byMonth.map((t) => [`${t.month} ${t.currency}`, shape(t)]))).toEqual(
          new Map([...expected].filter(([key]) => key.includes(" ")))
        )
        for (const t of totals.byCurrency) expect(t.netMinor).toBe(t.grossMinor - t.commissionMinor)
        // Newest month first; lines newest money first.
        expect(totals.byMonth.map((t) => t.month)).toEqual([...totals.byMonth.map((t) => t.month)].sort().reverse())
        expect(lines.map((l) => l.date.getTime())).toEqual([...lines.map((l) => l.date.getTime())].sort((a, b) => b - a))
      })
    )
  })

  it("the CSV has the documented columns and one row per line with its exact figures", () => {
    fc.assert(
      fc.property(fc.array(history, { maxLength: 10 }), (histories) => {
        const lines = earningLines(
          histories.map((h, i) => sourceOf(h, i)),
          "UTC"
        )
        const [header, ...rows] = parseCsv(csv(EARNINGS_CSV_HEADER, earningsCsvRows(lines)))
        expect(header).toEqual([...EARNINGS_CSV_HEADER])
        expect(rows).toHaveLength(lines.length)
        rows.forEach((row, i) => {
          const line = lines[i]!
          const at = (column: (typeof EARNINGS_CSV_HEADER)[number]) => row[EARNINGS_CSV_HEADER.indexOf(column)]
          expect(at("bookingId")).toBe(line.bookingId)
          expect(at("currency")).toBe(line.currency)
          // Decimal amounts with the currency's own decimals, as a spreadsheet reads them.
          const minorOf = (column: "gross" | "commission" | "net" | "refunded") => {
            const text = at(column)!
            expect(text).toMatch(
              currencyDecimals(line.currency) === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${currencyDecimals(line.currency)}}$`)
            )
            return Number(text.replace(".", ""))
          }
          expect(minorOf("gross")).toBe(line.grossMinor)
          expect(minorOf("commission")).toBe(line.commissionMinor)
          expect(minorOf("net")).toBe(line.netMinor)
          expect(minorOf("refunded")).toBe(line.refundedMinor)
        })
      })
    )
  })
})

describe("receipt numbers", () => {
  const uuid = fc.uuid({ version: 4 })
  it("read as R- and three groups of four Crockford characters (no I, L, O, U), the same for the same booking", () => {
    fc.assert(
      fc.property(uuid, (id) => {
        const number = receiptNumber(id)
        expect(number).toMatch(/^R-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
        expect(receiptNumber(id.toUpperCase())).toBe(number)
      })
    )
  })

  it("differ for bookings whose random bits differ (the number keeps all 60 of the first 15 random hex digits)", () => {
    fc.assert(
      fc.property(uuid, uuid, (a, b) => {
        const randomOf = (id: string) => id.replace(/-/g, "").slice(0, 12) + id.replace(/-/g, "").slice(13, 16)
        fc.pre(randomOf(a) !== randomOf(b))
        expect(receiptNumber(a)).not.toBe(receiptNumber(b))
      })
    )
    expect(receiptNumber("00000000-0000-4000-8000-000000000000")).toBe("R-0000-0000-0000")
    expect(receiptNumber("ffffffff-ffff-4fff-bfff-ffffffffffff")).toBe("R-ZZZZ-ZZZZ-ZZZZ")
  })

  it("lead back to their booking: the pattern a typed number gives matches its booking's id, in any case, spacing or look-alike", () => {
    const matches = (pattern: string, text: string) =>
      new RegExp(`^${pattern.replace(/[-]/g, "\\-").replace(/_/g, ".").replace(/%/g, ".*")}$`).test(text)
    const typings = fc.constantFrom(
      (n: string) => n,
      (n: string) => n.toLowerCase(),
      (n: string) => n.replace(/-/g, " "),
      (n: string) => n.slice(2).replace(/0/g, "O").replace(/1/g, "l")
    )
    fc.assert(
      fc.property(uuid, uuid, typings, (id, other, typed) => {
        const pattern = receiptIdPattern(typed(receiptNumber(id)))
        expect(pattern).toBeDefined()
        expect(matches(pattern!, id.toLowerCase())).toBe(true)
        if (receiptNumber(other) !== receiptNumber(id)) expect(matches(pattern!, other.toLowerCase())).toBe(false)
      })
    )
    for (const notOne of ["", "R-", "piano", "R-ABCD-EFGH-JK", "R-UUUU-0000-0000", "R-0000-0000-0000-0"])
      expect(receiptIdPattern(notOne)).toBeUndefined()
  })
})
