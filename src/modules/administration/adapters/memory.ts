import { Context, Effect, Layer } from "effect"
import type { OperationTotal } from "../domain"
import {
  AdminReadModel,
  type BookingRow,
  type DailyCount,
  type PaymentRow,
  type Person,
  type ServiceRow,
  type TopService,
  type TopUser,
  type UserRow
} from "../ports"

/**
 * The facts the in-memory read model answers from. Without a database the other modules' rows are
 * not shared, so service tests put here the rows their case needs (the Postgres adapter is checked
 * against real rows in test/administration/postgres.test.ts).
 */
export interface MemoryFacts {
  readonly users: Array<UserRow>
  readonly services: Array<ServiceRow & { readonly rating: number; readonly reviewCount: number }>
  readonly bookings: Array<BookingRow>
  readonly reviews: Array<{ readonly clientId: string; readonly providerId: string; readonly createdAt: Date }>
  readonly operations: Array<
    Omit<PaymentRow, "bookingRefundedMinor" | "service" | "client" | "provider"> & { readonly paymentIntentId: string | null }
  >
  readonly pendingApplications: { count: number }
}
export class AdminMemoryFacts extends Context.Tag("administration/AdminMemoryFacts")<AdminMemoryFacts, MemoryFacts>() {}

const contains = (needle: string | undefined, ...haystack: ReadonlyArray<string>) =>
  needle === undefined || haystack.some((h) => h.toLowerCase().includes(needle.toLowerCase()))
const fullName = (p: Person) => `${p.firstName} ${p.lastName}`
const page = <A>(rows: ReadonlyArray<A>, limit: number, offset: number) => ({
  total: rows.length,
  rows: rows.slice(offset, offset + limit)
})
const byDay = (dates: ReadonlyArray<Date>): ReadonlyArray<DailyCount> => {
  const counts = new Map<string, number>()
  for (const d of dates) counts.set(d.toISOString().slice(0, 10), (counts.get(d.toISOString().slice(0, 10)) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count }))
}

const readModel = (facts: MemoryFacts) => {
  const bookingOf = (id: string) => facts.bookings.find((b) => b.id === id)!
  return AdminReadModel.of({
    counts: Effect.sync(() => {
      const bookingsByStatus: Record<string, number> = {}
      for (const b of facts.bookings) bookingsByStatus[b.status] = (bookingsByStatus[b.status] ?? 0) + 1
      return {
        users: facts.users.length,
        services: { total: facts.services.length, available: facts.services.filter((s) => s.isAvailable).length },
        bookingsByStatus,
        pendingApplications: facts.pendingApplications.count
      }
    }),
    operationTotals: (currency, window) =>
      Effect.sync(() => {
        const totals = new Map<string, OperationTotal>()
        for (const o of facts.operations) {
          if (o.currency !== currency || (window && (o.createdAt < window.from || o.createdAt >= window.to))) continue
          const t = totals.get(o.kind) ?? { kind: o.kind, count: 0, amountMinor: 0, feeMinor: 0 }
          totals.set(o.kind, {
            kind: o.kind,
            count: t.count + 1,
            amountMinor: t.amountMinor + o.amountMinor,
            feeMinor: t.feeMinor + o.feeMinor
          })
        }
        return [...totals.values()].sort((a, b) => a.kind.localeCompare(b.kind))
      }),
    heldAmount: (currency) =>
      Effect.sync(() =>
        facts.operations
          .filter((a) => a.kind === "AUTHORIZATION" && a.currency === currency)
          .filter(
            (a) =>
              !facts.operations.some((o) => o.paymentIntentId === a.paymentIntentId && (o.kind === "CAPTURE" || o.kind === "CANCELLATION"))
          )
          .reduce((sum, a) => sum + a.amountMinor, 0)
      ),
    currencies: Effect.sync(() => {
      const counts = new Map<string, number>()
      for (const o of facts.operations) counts.set(o.currency, (counts.get(o.currency) ?? 0) + 1)
      return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([c]) => c)
    }),
    users: (q) =>
      Effect.sync(() =>
        page(
          facts.users
            .filter((u) => contains(q.search, u.firstName, u.lastName, u.email, fullName(u)))
            .filter((u) => q.role === undefined || u.role === q.role)
            .filter((u) => q.isActive === undefined || u.isActive === q.isActive)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
          q.limit,
          q.offset
        )
      ),
    bookings: (q) =>
      Effect.sync(() =>
        page(
          facts.bookings
            .filter((b) => contains(q.search, b.service.title, b.client.email, b.provider.email, fullName(b.client), fullName(b.provider)))
            .filter(
              (b) =>
                q.statuses === undefined ||
                q.statuses.includes(b.status) ||
                (q.statuses.includes("PAID") &&
                  b.status === "PENDING" &&
                  (b.paymentStatus === "AUTHORIZED" || b.paymentStatus === "CARD_SAVED"))
            )
            .filter((b) => (q.from === undefined || b.startTime >= q.from) && (q.to === undefined || b.startTime < q.to))
            .sort((a, b) => b.startTime.getTime() - a.startTime.getTime()),
          q.limit,
          q.offset
        )
      ),
    services: (q) =>
      Effect.sync(() =>
        page(
          facts.services
            .filter((s) => contains(q.search, s.title, s.provider.email, fullName(s.provider)))
            .filter((s) => q.categoryId === undefined || s.category.id === q.categoryId)
            .filter((s) => q.isAvailable === undefined || s.isAvailable === q.isAvailable)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            .map(({ rating: _, reviewCount: __, ...s }) => s),
          q.limit,
          q.offset
        )
      ),
    payments: (q) =>
      Effect.sync(() =>
        page(
          facts.operations
            .filter((o) => o.kind !== "CARD_SAVED")
            .filter((o) => (q.from === undefined || o.createdAt >= q.from) && (q.to === undefined || o.createdAt < q.to))
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            .map(({ paymentIntentId: _, ...o }): PaymentRow => {
              const b = bookingOf(o.bookingId)
              return {
                ...o,
                bookingRefundedMinor: b.refundedMinor,
                service: { id: b.service.id, title: b.service.title },
                client: b.client,
                provider: b.provider
              }
            }),
          q.limit,
          q.offset
        )
      ),
    topUsers: (from, limit) =>
      Effect.sync(() =>
        facts.users
          .map((u): TopUser & { createdAt: Date } => {
            const recent = facts.bookings.filter((b) => b.createdAt >= from)
            const reviews = facts.reviews.filter((r) => r.createdAt >= from)
            return {
              id: u.id,
              firstName: u.firstName,
              lastName: u.lastName,
              email: u.email,
              role: u.role,
              createdAt: u.createdAt,
              services: facts.services.filter((s) => s.provider.id === u.id).length,
              bookingsAsClient: recent.filter((b) => b.client.id === u.id).length,
              bookingsAsProvider: recent.filter((b) => b.provider.id === u.id).length,
              reviewsAsProvider: reviews.filter((r) => r.providerId === u.id).length,
              reviewsAsClient: reviews.filter((r) => r.clientId === u.id).length
            }
          })
          .filter((u) => u.bookingsAsClient + u.bookingsAsProvider + u.reviewsAsClient + u.reviewsAsProvider > 0)
          .sort(
            (a, b) =>
              b.bookingsAsClient + b.bookingsAsProvider - (a.bookingsAsClient + a.bookingsAsProvider) ||
              b.reviewsAsClient + b.reviewsAsProvider - (a.reviewsAsClient + a.reviewsAsProvider) ||
              a.createdAt.getTime() - b.createdAt.getTime()
          )
          .slice(0, limit)
          .map(({ createdAt: _, ...u }) => u)
      ),
    topServices: (from, limit) =>
      Effect.sync(() =>
        facts.services
          .map(
            (s): TopService => ({
              id: s.id,
              title: s.title,
              priceMinor: s.priceMinor,
              currency: s.currency,
              rating: s.rating,
              reviewCount: s.reviewCount,
              provider: { firstName: s.provider.firstName, lastName: s.provider.lastName },
              bookings: facts.bookings.filter((b) => b.service.id === s.id && b.createdAt >= from).length
            })
          )
          .filter((s) => s.bookings > 0)
          .sort((a, b) => b.bookings - a.bookings || b.rating - a.rating || b.reviewCount - a.reviewCount || a.id.localeCompare(b.id))
          .slice(0, limit)
      ),
    growth: (from) =>
      Effect.sync(() => ({
        users: byDay(facts.users.filter((u) => u.createdAt >= from).map((u) => u.createdAt)),
        bookings: byDay(facts.bookings.filter((b) => b.createdAt >= from).map((b) => b.createdAt))
      }))
  })
}

/** The read model over its own facts, and the facts themselves for tests to fill. */
export const AdministrationMemoryAdapters = Layer.suspend(() => {
  const facts: MemoryFacts = { users: [], services: [], bookings: [], reviews: [], operations: [], pendingApplications: { count: 0 } }
  return Layer.merge(Layer.succeed(AdminMemoryFacts, facts), Layer.succeed(AdminReadModel, readModel(facts)))
})
