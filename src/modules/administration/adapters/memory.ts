import { Context, Effect, Layer } from "effect"
import { parseReceiptNumber, receiptNumber } from "../../booking"
import { countsInFigures } from "../../payments"
import {
  authorizationState,
  bookingPaymentAmount,
  bookingPaymentFacts,
  bookingPaymentStatus,
  isHeld,
  type OperationFact,
  type OperationTotal,
  recordedOrder
} from "../domain"
import {
  AdminReadModel,
  type BookingPaymentRow,
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
  /** Their captured, refunded and commission amounts come from `operations`, as in the database. */
  readonly bookings: Array<Omit<BookingRow, "capturedMinor" | "refundedMinor" | "commissionMinor">>
  readonly reviews: Array<{ readonly clientId: string; readonly providerId: string; readonly createdAt: Date }>
  readonly operations: Array<
    Omit<PaymentRow, "service" | "client" | "provider" | "authorization"> & { readonly paymentIntentId: string | null }
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
  /** The operations that count in money figures, as PostgreSQL's counted_payment_operations. */
  const counted = () => facts.operations.filter(countsInFigures)
  const operationsOf = (bookingId: string): ReadonlyArray<OperationFact> => counted().filter((o) => o.bookingId === bookingId)
  const withMoney = (b: MemoryFacts["bookings"][number]): BookingRow => {
    const money = bookingPaymentFacts(operationsOf(b.id))
    return { ...b, capturedMinor: money.capturedMinor, refundedMinor: money.refundedMinor, commissionMinor: money.commissionMinor }
  }
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
        for (const o of counted()) {
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
    revenuePerDay: (currency, window) =>
      Effect.sync(() => {
        const days = new Map<string, { grossMinor: number; refundedMinor: number; commissionMinor: number }>()
        for (const o of counted()) {
          if (o.currency !== currency || o.createdAt < window.from || o.createdAt >= window.to) continue
          if (o.kind !== "CAPTURE" && o.kind !== "REFUND") continue
          const start = o.createdAt.toISOString().slice(0, 10)
          const d = days.get(start) ?? { grossMinor: 0, refundedMinor: 0, commissionMinor: 0 }
          if (o.kind === "CAPTURE")
            days.set(start, { ...d, grossMinor: d.grossMinor + o.amountMinor, commissionMinor: d.commissionMinor + o.feeMinor })
          else days.set(start, { ...d, refundedMinor: d.refundedMinor + o.amountMinor, commissionMinor: d.commissionMinor - o.feeMinor })
        }
        return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([start, sums]) => ({ start, ...sums }))
      }),
    held: (currency) =>
      Effect.sync(() => {
        const held = facts.operations.filter((a) => a.currency === currency && isHeld(a, operationsOf(a.bookingId)))
        return { count: held.length, amountMinor: held.reduce((sum, a) => sum + a.amountMinor, 0) }
      }),
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
            .filter(
              (b) =>
                contains(q.search, b.service.title, b.client.email, b.provider.email, fullName(b.client), fullName(b.provider)) ||
                (q.search !== undefined && parseReceiptNumber(q.search) === receiptNumber(b.id))
            )
            .filter(
              (b) =>
                q.statuses === undefined ||
                q.statuses.includes(b.status) ||
                (q.statuses.includes("PAID") &&
                  b.status === "PENDING" &&
                  (b.paymentStatus === "AUTHORIZED" || b.paymentStatus === "CARD_SAVED"))
            )
            .filter((b) => (q.from === undefined || b.startTime >= q.from) && (q.to === undefined || b.startTime < q.to))
            .filter((b) => q.currency === undefined || b.currency === q.currency)
            .sort((a, b) => b.startTime.getTime() - a.startTime.getTime())
            .map(withMoney),
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
            .filter((o) => q.currency === undefined || o.currency === q.currency)
            .sort((a, b) => recordedOrder(b, a))
            .map(({ paymentIntentId: _, ...o }): PaymentRow => {
              const b = bookingOf(o.bookingId)
              const fact = facts.operations.find((f) => f.id === o.id)!
              return {
                ...o,
                authorization: authorizationState(fact, operationsOf(b.id), isHeld(fact, operationsOf(b.id))),
                service: { id: b.service.id, title: b.service.title },
                client: b.client,
                provider: b.provider
              }
            }),
          q.limit,
          q.offset
        )
      ),
    bookingPayments: (q) =>
      Effect.sync(() => {
        const ids = [
          ...new Set(facts.operations.filter((o) => o.currency === q.currency && o.kind !== "CARD_SAVED").map((o) => o.bookingId))
        ]
        const rows = ids.map((bookingId): BookingPaymentRow => {
          const operations = counted().filter((o) => o.bookingId === bookingId && o.currency === q.currency && o.kind !== "CARD_SAVED")
          const latest = [...operations].sort(recordedOrder).at(-1)!
          const lastAuthorization = [...operations].sort(recordedOrder).findLast((o) => o.kind === "AUTHORIZATION")
          const money = bookingPaymentFacts(operations)
          const b = bookingOf(bookingId)
          return {
            id: latest.id,
            bookingId,
            status: bookingPaymentStatus(money),
            amountMinor: bookingPaymentAmount(money),
            capturedMinor: money.capturedMinor,
            refundedMinor: money.refundedMinor,
            commissionMinor: money.commissionMinor,
            heldMinor: money.heldMinor,
            currency: q.currency,
            paymentMethod: lastAuthorization ? (facts.operations.find((o) => o.id === lastAuthorization.id)?.paymentMethod ?? null) : null,
            createdAt: latest.createdAt,
            service: { id: b.service.id, title: b.service.title },
            client: b.client,
            provider: b.provider
          }
        })
        return page(
          rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)),
          q.limit,
          q.offset
        )
      }),
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
    bookingsByStatus: (from) =>
      Effect.sync(() => {
        const counts = new Map<string, number>()
        for (const b of facts.bookings) if (b.createdAt >= from) counts.set(b.status, (counts.get(b.status) ?? 0) + 1)
        return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([status, count]) => ({ status, count }))
      }),
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
