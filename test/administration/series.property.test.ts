import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  everyDay,
  FinancePeriods,
  type RevenuePoint,
  revenueSeries,
  seriesUnitOf,
  utcDay,
  utcDays,
  windowOf
} from "../../src/modules/administration/domain"

// The charts' series (analytics growth, revenue per period): every bucket of the window present once,
// in order, and the sums per bucket adding up to the sums of the days (money is integers: exact).

const DAY = 86_400_000
const now = fc.date({ min: new Date("2001-01-01"), max: new Date("2099-01-01"), noInvalidDate: true })
const period = fc.constantFrom(...(Object.keys(FinancePeriods) as Array<keyof typeof FinancePeriods>))

describe("UTC days of a window", () => {
  it("are consecutive, from the first instant's day to the last's, each once", () => {
    fc.assert(
      fc.property(now, fc.constantFrom(7, 30, 90, 365), (to, days) => {
        const w = windowOf(days, to)
        const list = utcDays(w.from, w.to)
        expect(list[0]).toBe(utcDay(w.from))
        expect(list.at(-1)).toBe(utcDay(w.to))
        for (let i = 1; i < list.length; i++) expect(Date.parse(list[i]!) - Date.parse(list[i - 1]!)).toBe(DAY)
        // A rolling window of n days touches n + 1 UTC days (both ends' days, included).
        expect(list.length).toBe(days + 1)
      })
    )
  })

  it("growth per day: every day present, the counts inside the window kept, those outside dropped", () => {
    fc.assert(
      fc.property(
        now,
        fc.array(fc.record({ offset: fc.integer({ min: -10, max: 40 }), count: fc.integer({ min: 1, max: 50 }) })),
        (to, raw) => {
          const w = windowOf(30, to)
          const counts = raw.map((r) => ({ date: utcDay(new Date(to.getTime() - r.offset * DAY)), count: r.count }))
          const dense = everyDay(w, counts)
          const days = utcDays(w.from, w.to)
          expect(dense.map((d) => d.date)).toEqual(days)
          const inside = counts.filter((c) => days.includes(c.date)).reduce((n, c) => n + c.count, 0)
          expect(dense.reduce((n, d) => n + d.count, 0)).toBe(inside)
        }
      )
    )
  })
})

describe("revenue series", () => {
  const point = (day: string): fc.Arbitrary<RevenuePoint> =>
    fc
      .record({
        grossMinor: fc.integer({ min: 0, max: 10_000_000 }),
        refundedMinor: fc.integer({ min: 0, max: 10_000_000 }),
        commissionMinor: fc.integer({ min: -500_000, max: 500_000 })
      })
      .map((sums) => ({ start: day, ...sums }))

  it("one bucket per day (week, month) or per UTC month (year), in order, summing to the days' totals", () => {
    const input = fc.tuple(now, period).chain(([to, p]) => {
      const w = windowOf(FinancePeriods[p], to)
      const days = utcDays(w.from, w.to)
      const picked = fc.uniqueArray(fc.constantFrom(...days), { maxLength: 40 }).map((ds) => [...ds].sort())
      return picked.chain((ds) => fc.tuple(fc.constant({ p, w, days }), fc.tuple(...ds.map(point))))
    })
    fc.assert(
      fc.property(input, ([{ p, w, days }, sample]) => {
        const unit = seriesUnitOf(p)
        const series = revenueSeries(w, unit, sample)
        const starts = series.map((s) => s.start)
        if (unit === "day") expect(starts).toEqual(days)
        else expect(starts).toEqual([...new Set(days.map((d) => `${d.slice(0, 7)}-01`))])
        for (const field of ["grossMinor", "refundedMinor", "commissionMinor"] as const) {
          expect(series.reduce((n, s) => n + s[field], 0)).toBe(sample.reduce((n, s) => n + s[field], 0))
        }
      })
    )
  })

  it("a year is shown per month, a week and a month per day", () => {
    expect(seriesUnitOf("year")).toBe("month")
    expect(seriesUnitOf("month")).toBe("day")
    expect(seriesUnitOf("week")).toBe("day")
    const w = windowOf(365, new Date("2026-11-26T02:00:00Z"))
    expect(revenueSeries(w, "month", []).map((s) => s.start)).toEqual([
      "2025-11-01",
      "2025-12-01",
      ...Array.from({ length: 11 }, (_, i) => `2026-${String(i + 1).padStart(2, "0")}-01`)
    ])
  })
})
