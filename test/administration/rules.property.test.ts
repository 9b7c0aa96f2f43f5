import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  bookingFigures,
  COMMISSION_RATE,
  csv,
  csvField,
  FinancePeriods,
  financialFigures,
  type OperationTotal,
  defaultCurrency,
  parseAnalyticsPeriod,
  parseCurrency,
  parseFinancePeriod,
  validationRate,
  windowOf
} from "../../src/modules/administration/domain"
import { decideAccountChange } from "../../src/modules/identity/account-admin"
import { Currencies } from "../../src/platform/money"
import { parseCsv } from "./csv"

const DAY = 86_400_000
const kinds = ["AUTHORIZATION", "CARD_SAVED", "CAPTURE", "CANCELLATION", "REFUND", "FAILURE"] as const
const roles = ["CLIENT", "PROVIDER", "ADMIN"] as const

describe("period windows", () => {
  it("a window ends now and spans exactly its days", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
        fc.constantFrom(7, 30, 90, 365),
        (now, days) => {
          const w = windowOf(days, now)
          expect(w.to).toEqual(now)
          expect(w.to.getTime() - w.from.getTime()).toBe(days * DAY)
        }
      )
    )
  })

  it("accepts exactly week, month, year (default month) and 7, 30, 90, 365 days (default 30)", () => {
    expect(Either.getOrThrow(parseFinancePeriod(undefined))).toBe("month")
    expect(Either.getOrThrow(parseFinancePeriod(" YEAR "))).toBe("year")
    expect(Either.getOrThrow(parseAnalyticsPeriod(""))).toBe(30)
    fc.assert(
      fc.property(fc.string(), (text) => {
        const finance = parseFinancePeriod(text)
        expect(Either.isRight(finance)).toBe(text.trim() === "" || text.trim().toLowerCase() in FinancePeriods)
        const analytics = parseAnalyticsPeriod(text)
        expect(Either.isRight(analytics)).toBe(text.trim() === "" || [7, 30, 90, 365].includes(Number(text.trim())))
        if (Either.isLeft(analytics)) expect(analytics.left.details[0]!.field).toBe("period")
      })
    )
  })
})

describe("currency", () => {
  it("accepts exactly the product's currencies (any case); none asked: the most active one, CAD without any", () => {
    expect(Either.getOrThrow(parseCurrency(" eur "))).toBe("EUR")
    expect(Either.getOrThrow(parseCurrency(""))).toBeUndefined()
    expect(defaultCurrency([])).toBe("CAD")
    expect(defaultCurrency(["EUR", "CAD"])).toBe("EUR")
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom(...Currencies, "eur", "ZZZ", "12")), (text) => {
        const parsed = parseCurrency(text)
        const code = text.trim().toUpperCase()
        expect(Either.isRight(parsed)).toBe(code === "" || (Currencies as ReadonlyArray<string>).includes(code))
        if (Either.isLeft(parsed)) expect(parsed.left.details[0]).toMatchObject({ field: "currency", key: "admin.currencyInvalid" })
      })
    )
  })
})

const totals = fc.uniqueArray(
  fc.record({ kind: fc.constantFrom(...kinds), count: fc.nat(1000), amountMinor: fc.nat(10_000_000), feeMinor: fc.nat(500_000) }),
  { selector: (t) => t.kind }
)

describe("financial figures", () => {
  it("gross is the captures, kept less refunds, commissions the fees kept, net kept less commissions, pending the holds", () => {
    const held = fc.record({ count: fc.nat(100), amountMinor: fc.nat(10_000_000) })
    fc.assert(
      fc.property(totals, held, (rows: Array<OperationTotal>, holds) => {
        const f = financialFigures(rows, holds)
        const of = (kind: string) => rows.find((r) => r.kind === kind)
        expect(f.grossRevenue).toBe(of("CAPTURE")?.amountMinor ?? 0)
        expect(f.refundedAmount).toBe(of("REFUND")?.amountMinor ?? 0)
        expect(f.keptRevenue).toBe(f.grossRevenue - f.refundedAmount)
        expect(f.totalCommissions).toBe((of("CAPTURE")?.feeMinor ?? 0) - (of("REFUND")?.feeMinor ?? 0))
        expect(f.netRevenue).toBe(f.keptRevenue - f.totalCommissions)
        expect(f.payments.completed).toBe(of("CAPTURE")?.count ?? 0)
        expect(f.payments.failed).toBe(of("FAILURE")?.count ?? 0)
        // Authorisations and saved cards count only while held (the snapshot), never as operations.
        expect(f.payments.pending).toBe(holds.count)
        expect(f.heldAmount).toBe(holds.amountMinor)
        const status = (s: string) => f.revenueByStatus.find((r) => r.status === s)
        expect(status("PENDING")?.amountMinor ?? 0).toBe(holds.count > 0 ? holds.amountMinor : 0)
        // Every capture, refund, release and failure lands in exactly one status.
        const moving = rows.filter((r) => r.kind !== "AUTHORIZATION" && r.kind !== "CARD_SAVED")
        expect(f.revenueByStatus.reduce((n, r) => n + r.count, 0)).toBe(moving.reduce((n, r) => n + r.count, 0) + holds.count)
        if (f.keptRevenue <= 0) expect(f.commissionMargin).toBe(0)
        else expect(Math.abs(f.commissionMargin - (f.totalCommissions / f.keptRevenue) * 100)).toBeLessThanOrEqual(0.005 + 1e-9)
      })
    )
  })

  it("with 5% fees on captures and none refunded, the margin is 5%", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 100, max: 1_000_000 }), { minLength: 1, maxLength: 20 }), (amounts) => {
        const gross = amounts.reduce((a, b) => a + b, 0)
        const fee = amounts.reduce((a, b) => a + Math.round(b * COMMISSION_RATE), 0)
        const f = financialFigures([{ kind: "CAPTURE", count: amounts.length, amountMinor: gross, feeMinor: fee }], {
          count: 0,
          amountMinor: 0
        })
        expect(Math.abs(f.commissionMargin - 5)).toBeLessThanOrEqual(0.5)
      })
    )
  })
})

describe("validation rate", () => {
  it("is completed and validated among the bookings not refused or cancelled, between 0 and 100", () => {
    const statuses = ["PENDING", "CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED", "COMPLETED", "VALIDATED", "REJECTED", "CANCELLED"]
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...statuses), fc.nat(500)), (counts) => {
        const rate = validationRate(counts)
        expect(rate).toBeGreaterThanOrEqual(0)
        expect(rate).toBeLessThanOrEqual(100)
        const considered = Object.entries(counts)
          .filter(([s]) => s !== "REJECTED" && s !== "CANCELLED")
          .reduce((n, [, c]) => n + c, 0)
        const done = (counts.COMPLETED ?? 0) + (counts.VALIDATED ?? 0)
        expect(rate).toBe(considered === 0 ? 0 : Math.round((done / considered) * 1000) / 10)
        const figures = bookingFigures(counts)
        expect(figures.total).toBe(Object.values(counts).reduce((a, b) => a + b, 0))
        expect(figures.ongoing).toBe((counts.IN_PROGRESS ?? 0) + (counts.SERVICE_RENDERED ?? 0))
      })
    )
  })
})

describe("account changes", () => {
  const account = fc.record({ id: fc.uuid(), role: fc.constantFrom(...roles), isActive: fc.boolean() })
  const change = fc.record({
    isActive: fc.option(fc.boolean(), { nil: undefined }),
    role: fc.option(fc.constantFrom(...roles, "USER", "king"), { nil: undefined })
  })

  it("an admin can neither deactivate nor demote themself; anyone else's change applies; deactivation revokes sessions", () => {
    fc.assert(
      fc.property(fc.uuid(), account, change, fc.boolean(), (actorId, target, input, self) => {
        const t = self ? { ...target, id: actorId, role: "ADMIN" as const, isActive: true } : target
        const decision = decideAccountChange({ id: actorId }, t, input)
        if (input.isActive === undefined && input.role === undefined) {
          expect(Either.isLeft(decision)).toBe(true)
          return
        }
        if (input.role === "king") {
          expect(Either.isLeft(decision) && decision.left._tag).toBe("ValidationFailed")
          return
        }
        const role = input.role === "USER" ? "CLIENT" : input.role
        if (t.id === actorId && (input.isActive === false || (role !== undefined && role !== "ADMIN"))) {
          expect(Either.isLeft(decision) && decision.left._tag).toBe("Conflict")
          return
        }
        const result = Either.getOrThrow(decision)
        expect(result.isActive).toBe(input.isActive ?? t.isActive)
        expect(result.role).toBe(role ?? t.role)
        expect(result.revokeSessions).toBe(t.isActive && result.isActive === false)
      })
    )
  })

  it("refuses values that are not a boolean or a role", () => {
    for (const input of [{ isActive: "true" }, { isActive: 1 }, { role: 3 }, { role: "" }, {}]) {
      const decision = decideAccountChange({ id: "a" }, { id: "b", role: "CLIENT", isActive: true }, input)
      expect(Either.isLeft(decision) && decision.left._tag).toBe("ValidationFailed")
    }
  })
})

describe("CSV", () => {
  it("quotes fields with commas, quotes or line breaks, and a reader gets every value back (formulas neutralised)", () => {
    const formulaLike = fc.tuple(fc.constantFrom("=", "+", "-", "@", "\t", "\r"), fc.string()).map(([a, b]) => a + b)
    const cell = fc.oneof(fc.string(), formulaLike)
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 8 }), (rows) => {
        const shown = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value)
        expect(parseCsv(csv(["a", "b"], rows))).toEqual([["a", "b"], ...rows.map((row) => row.map(shown))])
      })
    )
    // No cell a reader gets back starts like a formula.
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 4 }), (row) => {
        for (const value of parseCsv(csv(["a"], [row]))[1]!) expect(value).not.toMatch(/^[=+\-@\t\r]/)
      })
    )
    expect(csvField('=HYPERLINK("http://evil.example","Cliquez")')).toBe('"\'=HYPERLINK(""http://evil.example"",""Cliquez"")"')
    expect(csvField(-12.5)).toBe("-12.5")
    expect(csvField('Dupont, "Jo"')).toBe('"Dupont, ""Jo"""')
    expect(csvField(null)).toBe("")
  })
})
