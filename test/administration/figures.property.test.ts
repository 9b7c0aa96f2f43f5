import { Effect } from "effect"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { exportCsv } from "../../cli/commands/administration"
import { BookingRepository, type PaymentOperation } from "../../src/modules/booking/ports"
import { commissionOf } from "../../src/modules/booking/domain"
import { Currencies } from "../../src/platform/money"
import { httpWorld } from "../support/world"
import { parseCsv } from "./csv"
import { DAY, MINUTE } from "../support/durations"

// Every money figure the back-office shows (dashboard, finance page, its payments table, the CSV
// exports) against the payment rows themselves. Random histories of bookings (holds, renewals,
// captures in part or whole, refunds, releases, failures, saved cards, over a year and more, in every
// currency) are written through the booking module's PostgreSQL adapter (`recordOperation`, then dated
// in the past), on top of the seed's demo payments; each figure is then recomputed here from
// `payment_operations` by a plain fold (no SQL aggregate, no code of the module) and compared.

const { server, api, admin, sql } = httpWorld({ admin: true })
/** A seeded service, its provider and a seeded client: the parties of the histories written. */
let people: { serviceId: string; providerId: string; clientId: string }

const PERIODS = { week: 7, month: 30, year: 365 } as const

beforeAll(async () => {
  const [row] = await sql<{ serviceId: string; providerId: string; clientId: string }>(
    `SELECT s.id AS service_id, s.user_id AS provider_id, (SELECT id FROM users WHERE role = 'CLIENT' ORDER BY email LIMIT 1) AS client_id
     FROM services s ORDER BY s.id LIMIT 1`
  )
  people = row!
})

// ---- Histories -----------------------------------------------------------------------------------

/** One booking's payment story, from which its operations follow. */
const story = fc.record({
  currency: fc.constantFrom(...Currencies),
  totalMinor: fc.integer({ min: 1, max: 2_000_000 }),
  /** Days ago of its first operation, and the days between the next ones. */
  age: fc.integer({ min: 0, max: 420 }),
  gaps: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 12, maxLength: 12 }),
  cardSaved: fc.boolean(),
  failuresBefore: fc.integer({ min: 0, max: 2 }),
  /** 0: never authorised; then 1 + renewals. */
  authorizations: fc.integer({ min: 0, max: 3 }),
  end: fc.constantFrom("held", "captured", "released"),
  /** Percent of the hold captured (a dispute or a late cancellation captures part). */
  capturedPercent: fc.integer({ min: 1, max: 100 }),
  /** Each refund: a percent of what is still refundable. */
  refunds: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 3 }),
  releasedAmount: fc.boolean()
})
type Story = typeof story extends fc.Arbitrary<infer A> ? A : never

let slot = 0
let intents = 0

/** Writes one booking and its operations through the booking adapter, then dates them in the past. */
const write = async (s: Story) => {
  const start = new Date(Date.UTC(2090, 0, 1) + ++slot * 3 * 3_600_000)
  const booking = await server.run(
    Effect.flatMap(BookingRepository, (bookings) =>
      bookings.insert({
        id: crypto.randomUUID(),
        serviceId: people.serviceId,
        clientId: people.clientId,
        providerId: people.providerId,
        status: "PENDING",
        paymentStatus: "UNPAID",
        startTime: start,
        endTime: new Date(start.getTime() + 3_600_000),
        address: "1 rue du Test",
        notes: "",
        hourlyPriceMinor: s.totalMinor,
        currency: s.currency,
        totalMinor: s.totalMinor,
        authorizedMinor: 0,
        capturedMinor: 0,
        refundedMinor: 0,
        holdExpiresAt: start,
        authorizationExpiresAt: null,
        renderedAt: null,
        paymentIssue: null,
        cancellationFeeMinor: 0
      })
    )
  )
  if (booking._tag !== "Some") throw new Error("the slot was taken")
  const id = booking.value.id
  const operations: Array<Omit<PaymentOperation, "bookingId" | "gateway" | "currency" | "paymentMethod" | "detail">> = []
  const op = (
    kind: PaymentOperation["kind"],
    amountMinor: number,
    feeMinor: number,
    paymentIntentId: string | null,
    refundStatus: PaymentOperation["refundStatus"] = kind === "REFUND" ? "succeeded" : null
  ) =>
    operations.push({
      kind,
      amountMinor,
      feeMinor,
      paymentIntentId,
      refundStatus,
      reference: `${kind.toLowerCase()}:${crypto.randomUUID()}`
    })
  if (s.cardSaved) op("CARD_SAVED", 0, 0, null)
  for (let i = 0; i < s.failuresBefore; i++) op("FAILURE", 0, 0, `pi_fail_${++intents}`)
  let intent: string | null = null
  for (let i = 0; i < s.authorizations; i++) {
    intent = `pi_prop_${++intents}`
    op("AUTHORIZATION", s.totalMinor, 0, intent)
  }
  if (intent !== null && s.end === "captured") {
    const captured = Math.max(1, Math.floor((s.totalMinor * s.capturedPercent) / 100))
    op("CAPTURE", captured, commissionOf(captured), intent)
    let refundable = captured
    for (const percent of s.refunds) {
      const amount = Math.floor((refundable * percent) / 100)
      if (amount === 0) continue
      op("REFUND", amount, commissionOf(amount), intent)
      refundable -= amount
    }
  } else if (intent !== null && s.end === "released") {
    op("CANCELLATION", s.releasedAmount ? s.totalMinor : 0, 0, intent)
  }
  const at = Date.now()
  let daysAgo = s.age
  for (const [i, o] of operations.entries()) {
    await server.run(
      Effect.flatMap(BookingRepository, (bookings) =>
        bookings.recordOperation({
          ...o,
          bookingId: id,
          gateway: "sandbox",
          currency: s.currency,
          paymentMethod: o.kind === "AUTHORIZATION" ? "card" : null,
          detail: null
        })
      )
    )
    // Half a day past a whole number of days (far from the 7, 30 and 365-day bounds), a minute apart.
    daysAgo = Math.max(0, daysAgo - (i === 0 ? 0 : s.gaps[i % s.gaps.length]!))
    const createdAt = new Date(at - daysAgo * DAY - DAY / 2 + i * MINUTE)
    await sql("UPDATE payment_operations SET created_at = $1 WHERE kind = $2 AND reference = $3", [createdAt, o.kind, o.reference])
  }
}

// ---- The figures, recomputed from the rows -------------------------------------------------------

interface Row {
  id: string
  bookingId: string
  kind: string
  amountMinor: number
  feeMinor: number
  currency: string
  paymentIntentId: string | null
  createdAt: Date
}

const rows = async () =>
  (
    await sql<Row>(
      "SELECT id, booking_id, kind, amount_minor::float8 AS amount_minor, fee_minor::float8 AS fee_minor, trim(currency) AS currency, payment_intent_id, created_at FROM payment_operations"
    )
  ).map((r) => ({ ...r, createdAt: new Date(r.createdAt) }))

const recorded = (a: Row, b: Row) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Per booking, walking its operations in order: the authorisation left held at the end, if any. */
const heldOf = (ops: ReadonlyArray<Row>): Row | undefined => {
  let held: Row | undefined
  for (const o of [...ops].sort(recorded)) {
    if (o.kind === "AUTHORIZATION") held = o
    else if ((o.kind === "CAPTURE" || o.kind === "CANCELLATION") && held && o.paymentIntentId === held.paymentIntentId) held = undefined
  }
  return held
}

const byBooking = (all: ReadonlyArray<Row>) => {
  const map = new Map<string, Array<Row>>()
  for (const r of all) map.set(r.bookingId, [...(map.get(r.bookingId) ?? []), r])
  return map
}

const total = (list: ReadonlyArray<Row>, kind: string, field: "amountMinor" | "feeMinor" = "amountMinor") =>
  list.filter((r) => r.kind === kind).reduce((sum, r) => sum + r[field], 0)
const count = (list: ReadonlyArray<Row>, kind: string) => list.filter((r) => r.kind === kind).length

const expected = (all: ReadonlyArray<Row>, currency: string, now: number) => {
  const mine = all.filter((r) => r.currency === currency)
  const holds = [...byBooking(mine).values()].flatMap((ops) => heldOf(ops) ?? [])
  const held = { count: holds.length, amountMinor: holds.reduce((sum, h) => sum + h.amountMinor, 0) }
  const since = (days: number) => mine.filter((r) => r.createdAt.getTime() >= now - days * DAY)
  const figures = (list: ReadonlyArray<Row>) => {
    const gross = total(list, "CAPTURE")
    const refunded = total(list, "REFUND")
    const commissions = total(list, "CAPTURE", "feeMinor") - total(list, "REFUND", "feeMinor")
    const kept = gross - refunded
    const byStatus = [
      { status: "COMPLETED", count: count(list, "CAPTURE"), amountMinor: gross },
      { status: "PENDING", ...held },
      { status: "REFUNDED", count: count(list, "REFUND"), amountMinor: refunded },
      { status: "CANCELLED", count: count(list, "CANCELLATION"), amountMinor: total(list, "CANCELLATION") },
      { status: "FAILED", count: count(list, "FAILURE"), amountMinor: 0 }
    ].filter((s) => s.count > 0)
    return {
      grossRevenue: gross,
      refundedAmount: refunded,
      keptRevenue: kept,
      totalCommissions: commissions,
      netRevenue: kept - commissions,
      commissionMargin: kept > 0 ? Math.round((commissions / kept) * 100 * 100) / 100 : 0,
      heldAmount: held.amountMinor,
      payments: { completed: count(list, "CAPTURE"), pending: held.count, failed: count(list, "FAILURE") },
      revenueByStatus: byStatus
    }
  }
  const payments = [...byBooking(mine.filter((r) => r.kind !== "CARD_SAVED")).entries()]
    .map(([bookingId, ops]) => {
      const ordered = [...ops].sort(recorded)
      const captured = total(ops, "CAPTURE")
      const refunded = total(ops, "REFUND")
      const heldNow = heldOf(ops)?.amountMinor ?? 0
      const lastAuthorization = ordered.filter((o) => o.kind === "AUTHORIZATION").at(-1)
      const status =
        captured > 0
          ? refunded >= captured
            ? "REFUNDED"
            : "COMPLETED"
          : heldNow > 0
            ? "PENDING"
            : count(ops, "CANCELLATION") > 0
              ? "CANCELLED"
              : "FAILED"
      return {
        id: ordered.at(-1)!.id,
        bookingId,
        status,
        amountMinor: captured > 0 ? captured : (lastAuthorization?.amountMinor ?? 0),
        capturedMinor: captured,
        refundedMinor: refunded,
        commissionMinor: total(ops, "CAPTURE", "feeMinor") - total(ops, "REFUND", "feeMinor"),
        heldMinor: heldNow,
        createdAt: ordered.at(-1)!.createdAt.toISOString()
      }
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1))
  return {
    month: figures(since(30)),
    allTime: figures(mine),
    periods: Object.fromEntries(Object.entries(PERIODS).map(([p, days]) => [p, figures(since(days))])),
    held,
    payments
  }
}

/** Most operations first, then by code (as documented). */
const mostActive = (all: ReadonlyArray<Row>) => {
  const counts = new Map<string, number>()
  for (const r of all) counts.set(r.currency, (counts.get(r.currency) ?? 0) + 1)
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([c]) => c)
}

const get = async (path: string) => {
  const reply = await api.get(path, { token: admin.token })
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data
}

const allPayments = async (currency: string) => {
  const list: Array<Record<string, unknown>> = []
  for (let page = 1; ; page++) {
    const data = await get(`/api/admin/payments?currency=${currency}&limit=100&page=${page}`)
    list.push(...data.payments)
    if (page >= data.pagination.pages) return list
  }
}

const checkEverything = async (currencies: ReadonlyArray<string>) => {
  const before = await rows()
  const now = Date.now()
  const order = mostActive(before)

  // The dashboard opens on the most active currency.
  const opening = await get("/api/admin/dashboard")
  expect(opening.revenue.currency).toBe(order[0])
  expect(opening.currencies).toEqual(order)

  for (const currency of currencies) {
    const want = expected(before, currency, now)
    const dashboard = await get(`/api/admin/dashboard?currency=${currency}`)
    expect(dashboard.revenue).toEqual({
      monthly: want.month.grossRevenue,
      monthlyCommissions: want.month.totalCommissions,
      pending: want.held.amountMinor,
      pendingCount: want.held.count,
      validated: want.allTime.keptRevenue,
      currency
    })
    for (const period of Object.keys(PERIODS)) {
      const stats = await get(`/api/admin/financial/stats?period=${period}&currency=${currency}`)
      const { period: _p, currency: c, currencies: _c, from: _f, to: _t, series, ...figures } = stats
      expect(c).toBe(currency)
      expect(figures, `${currency} ${period}`).toEqual(want.periods[period])
      // The chart's buckets add up to the period's figures (test/administration/charts.http.test.ts checks each bucket).
      const sum = (field: string) => series.points.reduce((n: number, p: Record<string, number>) => n + p[field]!, 0)
      expect([sum("grossMinor"), sum("refundedMinor"), sum("commissionMinor")], `${currency} ${period} series`).toEqual([
        figures.grossRevenue,
        figures.refundedAmount,
        figures.totalCommissions
      ])
    }
    const payments = await allPayments(currency)
    expect(
      payments.map((p) => ({
        id: p.id,
        bookingId: p.bookingId,
        status: p.status,
        amountMinor: p.amountMinor,
        capturedMinor: p.capturedMinor,
        refundedMinor: p.refundedMinor,
        commissionMinor: p.commissionMinor,
        heldMinor: p.heldMinor,
        createdAt: p.createdAt
      }))
    ).toEqual(want.payments)
    // The commission is 5% of what each booking keeps, rounded per capture and per refund as the payments computed it.
    for (const p of want.payments) {
      const refunds = (byBooking(before).get(p.bookingId) ?? []).filter((r) => r.kind === "REFUND").length
      expect(Math.abs(p.commissionMinor - (p.capturedMinor - p.refundedMinor) * 0.05)).toBeLessThanOrEqual(0.5 * (1 + refunds) + 1e-9)
    }

    // The payments CSV: the operations of the currency (card-saved steps left out), each as recorded.
    const mine = before.filter((r) => r.currency === currency && r.kind !== "CARD_SAVED")
    const ledger = parseCsv(await server.run(exportCsv("payments", { currency })))
    const header = ledger[0]!
    const col = (name: string) => header.indexOf(name)
    const lines = ledger.slice(1)
    expect(lines.length).toBe(mine.length)
    expect(lines.every((l) => l[col("currency")] === currency)).toBe(true)
    // An authorisation's line says what became of it: PENDING while held, COMPLETED once captured, else CANCELLED.
    const groups = byBooking(before)
    const statusOf = new Map(
      mine.map((r) => {
        if (r.kind !== "AUTHORIZATION")
          return [r.id, { CAPTURE: "COMPLETED", REFUND: "REFUNDED", CANCELLATION: "CANCELLED", FAILURE: "FAILED" }[r.kind]]
        const ops = groups.get(r.bookingId)!
        if (heldOf(ops)?.id === r.id) return [r.id, "PENDING"]
        return [r.id, ops.some((o) => o.kind === "CAPTURE" && o.paymentIntentId === r.paymentIntentId) ? "COMPLETED" : "CANCELLED"]
      })
    )
    for (const line of lines) expect(line[col("status")], line.join(",")).toBe(statusOf.get(line[col("id")]!))
    for (const kind of ["AUTHORIZATION", "CAPTURE", "REFUND", "CANCELLATION", "FAILURE"]) {
      const of = lines.filter((l) => l[col("kind")] === kind)
      expect(of.length, kind).toBe(count(mine, kind))
      expect(
        of.reduce((sum, l) => sum + Number(l[col("amountMinor")]), 0),
        kind
      ).toBe(total(mine, kind))
      expect(
        of.reduce((sum, l) => sum + Number(l[col("feeMinor")]), 0),
        kind
      ).toBe(total(mine, kind, "feeMinor"))
    }

    // The bookings CSV: each booking of the currency with its money from its operations.
    const sheet = parseCsv(await server.run(exportCsv("bookings", { currency })))
    const h = sheet[0]!
    const perBooking = byBooking(before)
    const [{ n }] = (await sql<{ n: number }>("SELECT count(*)::int AS n FROM bookings WHERE currency = $1", [currency])) as [{ n: number }]
    expect(sheet.length - 1).toBe(n)
    for (const line of sheet.slice(1)) {
      const ops = perBooking.get(line[h.indexOf("id")]!) ?? []
      expect(line[h.indexOf("currency")]).toBe(currency)
      expect(Number(line[h.indexOf("capturedMinor")])).toBe(total(ops, "CAPTURE"))
      expect(Number(line[h.indexOf("refundedMinor")])).toBe(total(ops, "REFUND"))
      expect(Number(line[h.indexOf("commissionMinor")])).toBe(total(ops, "CAPTURE", "feeMinor") - total(ops, "REFUND", "feeMinor"))
    }
  }
  // Nothing moved meanwhile (a background job recording an operation would make the comparison moot).
  expect((await rows()).length).toBe(before.length)
}

describe("back-office figures against the payment rows (fast-check, PostgreSQL)", () => {
  it("the seed's demo payments, in every currency recorded", async () => {
    const currencies = mostActive(await rows())
    expect(currencies.length).toBeGreaterThan(0)
    await checkEverything(currencies)
  }, 120_000)

  it("random booking and payment histories: dashboard, finance page, payments table and CSV exports equal the rows", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(story, { minLength: 1, maxLength: 4 }), async (stories) => {
        for (const s of stories) await write(s)
        await checkEverything([...new Set(stories.map((s) => s.currency))])
      }),
      { numRuns: 25, endOnFailure: true }
    )
  }, 600_000)
})
