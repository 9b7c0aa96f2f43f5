import { beforeAll, describe, expect, it } from "vitest"
import { httpWorld } from "../support/world"
import { DAY } from "../support/durations"

// The series behind the back-office's charts (issue 16 item 3): revenue and commissions per day or
// month on /financial/stats, bookings per status and growth per day on /analytics. Each is recomputed
// here from the owning tables' rows by a plain fold (no SQL aggregate) and compared.

const { api, admin, sql } = httpWorld({ admin: true })

beforeAll(async () => {
  // Captures and refunds of the seed's bookings spread over the last year in the default currency, so
  // buckets differ: several a day, some months empty (written as the booking module records them).
  const bookings = await sql<{ id: string }>(`SELECT id FROM bookings ORDER BY id LIMIT 5`)
  const currency = (await api.get("/api/admin/financial/stats", { token: admin.token })).body.data.currency
  for (let i = 0; i < 40; i++) {
    const kind = i % 4 === 3 ? "REFUND" : "CAPTURE"
    const amount = 1000 + i * 137
    await sql(
      `INSERT INTO payment_operations (booking_id, gateway, kind, amount_minor, currency, fee_minor, reference, created_at, refund_status)
       VALUES ($1, 'sandbox', $2, $3, $4, $5, $6, now() - make_interval(secs => $7), CASE WHEN $2::text = 'REFUND' THEN 'succeeded' END)`,
      [
        bookings[i % bookings.length]!.id,
        kind,
        amount,
        currency,
        Math.round(amount * 0.05),
        `charts-test-${i}`,
        ((i * 37) % 300) * 86_400 + i * 61
      ]
    )
  }
})

interface Point {
  start: string
  grossMinor: number
  refundedMinor: number
  commissionMinor: number
}

describe("chart series", () => {
  it("revenue per day (week, month) and per UTC month (year) match the operations, every bucket present", async () => {
    const rows = await sql<{ kind: string; amountMinor: number; feeMinor: number; currency: string; createdAt: Date }>(
      `SELECT kind, amount_minor::int AS amount_minor, fee_minor::int AS fee_minor, trim(currency) AS currency, created_at FROM payment_operations`
    )
    for (const period of ["week", "month", "year"] as const) {
      const reply = await api.get(`/api/admin/financial/stats?period=${period}`, { token: admin.token })
      expect(reply.status, reply.text).toBe(200)
      const stats = reply.body.data
      const from = new Date(stats.from)
      const to = new Date(stats.to)
      expect(stats.series.unit).toBe(period === "year" ? "month" : "day")
      const key = (at: Date) => (period === "year" ? `${at.toISOString().slice(0, 7)}-01` : at.toISOString().slice(0, 10))
      const expected = new Map<string, Point>()
      for (let t = Date.parse(from.toISOString().slice(0, 10)); t <= to.getTime(); t += DAY) {
        const k = key(new Date(t))
        expected.set(k, { start: k, grossMinor: 0, refundedMinor: 0, commissionMinor: 0 })
      }
      for (const r of rows) {
        const at = new Date(r.createdAt)
        if (r.currency !== stats.currency || at < from || at >= to) continue
        const p = expected.get(key(at))!
        if (r.kind === "CAPTURE") {
          p.grossMinor += r.amountMinor
          p.commissionMinor += r.feeMinor
        } else if (r.kind === "REFUND") {
          p.refundedMinor += r.amountMinor
          p.commissionMinor -= r.feeMinor
        }
      }
      expect(stats.series.points).toEqual([...expected.values()])
      const sum = (field: keyof Omit<Point, "start">) => stats.series.points.reduce((n: number, p: Point) => n + p[field], 0)
      expect(sum("grossMinor")).toBe(stats.grossRevenue)
      expect(sum("refundedMinor")).toBe(stats.refundedAmount)
      expect(sum("commissionMinor")).toBe(stats.totalCommissions)
      if (period === "year") expect(stats.series.points.filter((p: Point) => p.grossMinor > 0).length).toBeGreaterThan(1)
    }
  })

  it("analytics: bookings per status and growth per day over the period, days without any as 0", async () => {
    const bookings = await sql<{ status: string; createdAt: Date }>(`SELECT status, created_at FROM bookings`)
    const users = await sql<{ createdAt: Date }>(`SELECT created_at FROM users`)
    for (const period of [7, 365]) {
      const reply = await api.get(`/api/admin/analytics?period=${period}`, { token: admin.token })
      expect(reply.status, reply.text).toBe(200)
      const a = reply.body.data
      const from = new Date(a.from)
      const recent = bookings.filter((b) => new Date(b.createdAt) >= from)
      const perStatus = new Map<string, number>()
      for (const b of recent) perStatus.set(b.status, (perStatus.get(b.status) ?? 0) + 1)
      expect(Object.fromEntries(a.bookingsByStatus.map((s: { status: string; count: number }) => [s.status, s.count]))).toEqual(
        Object.fromEntries(perStatus)
      )
      if (period === 365) expect(perStatus.size).toBeGreaterThan(1)
      const counts = a.bookingsByStatus.map((s: { count: number }) => s.count)
      expect([...counts].sort((x, y) => y - x)).toEqual(counts)
      // Every UTC day from the first to today, once, in order.
      const days = a.growth.bookings.map((d: { date: string }) => d.date)
      expect(days[0]).toBe(from.toISOString().slice(0, 10))
      expect(days.at(-1)).toBe(new Date().toISOString().slice(0, 10))
      expect(days.length).toBe(period + 1)
      expect(a.growth.users.map((d: { date: string }) => d.date)).toEqual(days)
      const total = (list: ReadonlyArray<{ count: number }>) => list.reduce((n, d) => n + d.count, 0)
      expect(total(a.growth.bookings)).toBe(recent.length)
      expect(total(a.growth.users)).toBe(users.filter((u) => new Date(u.createdAt) >= from).length)
      for (const d of a.growth.bookings) {
        expect(d.count).toBe(recent.filter((b) => new Date(b.createdAt).toISOString().slice(0, 10) === d.date).length)
      }
    }
  })
})
