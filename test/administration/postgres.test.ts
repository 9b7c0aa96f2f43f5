import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { AdminReadModel } from "../../src/modules/administration/ports"
import { financialFigures } from "../../src/modules/administration/domain"
import { httpWorld } from "../support/world"

// The Postgres read model over the seed's demo bookings (made through the booking service and the
// sandbox gateway): its figures must match what the owning tables say, computed another way.

const { server, sql } = httpWorld()
const read = <A>(f: (r: AdminReadModel["Type"]) => Effect.Effect<A>) => server.run(Effect.flatMap(AdminReadModel, f))

describe("AdminReadModel on PostgreSQL", () => {
  it("money figures agree with the bookings' own captured, refunded and authorised amounts", async () => {
    const currencies = await read((r) => r.currencies)
    expect(currencies.length).toBeGreaterThan(0)
    for (const currency of currencies) {
      const [b] = await sql<{ captured: number; refunded: number; held: number }>(
        `SELECT coalesce(sum(captured_minor), 0)::float8 AS captured, coalesce(sum(refunded_minor), 0)::float8 AS refunded,
                coalesce(sum(authorized_minor) FILTER (WHERE payment_status = 'AUTHORIZED'), 0)::float8 AS held
         FROM bookings WHERE currency = $1`,
        [currency]
      )
      const held = await read((r) => r.held(currency))
      const figures = financialFigures(await read((r) => r.operationTotals(currency)), held)
      expect(figures.grossRevenue).toBe(b!.captured)
      expect(figures.refundedAmount).toBe(b!.refunded)
      // The holds the operations say are open are those the bookings say they hold.
      expect(held.amountMinor).toBe(b!.held)
      // The 5% application fee of every capture.
      expect(figures.totalCommissions).toBe(Math.round(b!.captured * 0.05))
    }
    // The demo has a completed (captured) booking.
    const all = await Promise.all(currencies.map((c) => read((r) => r.operationTotals(c))))
    expect(all.flat().some((t) => t.kind === "CAPTURE" && t.count > 0)).toBe(true)
  })

  it("counts, lists and rankings match the tables", async () => {
    const counts = await read((r) => r.counts)
    const [t] = await sql<{ users: number; services: number; bookings: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM services WHERE archived_at IS NULL) AS services,
              (SELECT count(*)::int FROM bookings) AS bookings`
    )
    expect(counts.users).toBe(t!.users)
    expect(counts.services.total).toBe(t!.services)
    expect(Object.values(counts.bookingsByStatus).reduce((a, b) => a + b, 0)).toBe(t!.bookings)

    const bookings = await read((r) => r.bookings({ limit: 100, offset: 0 }))
    expect(bookings.total).toBe(t!.bookings)
    const byMarie = await read((r) => r.bookings({ search: "marie dubois", limit: 100, offset: 0 }))
    expect(byMarie.rows.length).toBeGreaterThan(0)
    expect(
      byMarie.rows.every(
        (b) => b.provider.email === "marie.dubois@marketplace.local" || b.client.email === "marie.dubois@marketplace.local"
      )
    ).toBe(true)

    const providers = await read((r) => r.users({ role: "PROVIDER", limit: 100, offset: 0 }))
    expect(providers.rows.every((u) => u.role === "PROVIDER" && u.paymentAccount?.chargesEnabled === true)).toBe(true)

    const payments = await read((r) => r.payments({ limit: 100, offset: 0 }))
    const [ops] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM payment_operations WHERE kind <> 'CARD_SAVED'")
    expect(payments.total).toBe(ops!.n)
    // The finance page's payments: one row per booking with money operations in the currency.
    for (const currency of await read((r) => r.currencies)) {
      const perBooking = await read((r) => r.bookingPayments({ currency, limit: 100, offset: 0 }))
      const [n] = await sql<{ n: number }>(
        "SELECT count(DISTINCT booking_id)::int AS n FROM payment_operations WHERE kind <> 'CARD_SAVED' AND currency = $1",
        [currency]
      )
      expect(perBooking.total).toBe(n!.n)
      expect(new Set(perBooking.rows.map((p) => p.bookingId)).size).toBe(perBooking.rows.length)
    }

    const since = new Date(Date.now() - 7 * 86_400_000)
    const top = await read((r) => r.topServices(since, 6))
    for (const s of top) {
      const [n] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM bookings WHERE service_id = $1 AND created_at >= $2", [
        s.id,
        since
      ])
      expect(s.bookings).toBe(n!.n)
    }
    const users = await read((r) => r.topUsers(since, 6))
    const lucas = users.find((u) => u.email === "lucas.bernard@marketplace.local")
    const [lb] = await sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM bookings b JOIN users u ON u.id = b.client_id WHERE u.email = 'lucas.bernard@marketplace.local'"
    )
    expect(lucas?.bookingsAsClient).toBe(lb!.n)
    const growth = await read((r) => r.growth(since))
    expect(growth.bookings.reduce((n, d) => n + d.count, 0)).toBe(t!.bookings)
  })
})
