import { Context, Effect, Either, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import {
  type BadGateway,
  type BadRequest,
  type Conflict,
  type Forbidden,
  invalid,
  issue,
  type NotFound,
  type ValidationFailed
} from "../../platform/errors"
import { pageOf } from "../../platform/paging"
import { AUDIT_PAGE_SIZE } from "./rules"
import { type AuditRecord, AuditTrail } from "../../platform/audit/port"
import {
  allowedAdminStatuses,
  type BookingDetail,
  Bookings,
  BookingStatuses,
  type OpenDispute,
  type PaymentEvent,
  paymentTimeline
} from "../booking"
import { Catalogue, type ServiceListing } from "../catalogue"
import {
  type AccountChangeInput,
  type Actor,
  Identity,
  parseRole,
  requireRole,
  type Role,
  type User,
  UserNotFound,
  UserRepository
} from "../identity"
import { AdminPaymentAccounts, type ConnectStatus, countsInFigures, type PaymentAccount, type PaymentGatewayError } from "../payments"
import {
  type AnalyticsPeriod,
  bookingFigures,
  csv,
  DEFAULT_CURRENCY,
  defaultCurrency,
  type FinancePeriod,
  FinancePeriods,
  financialFigures,
  type FinancialFigures,
  parseAnalyticsPeriod,
  parseBooleanFilter,
  parseCategoryId,
  parseCurrency,
  parseDay,
  parseFinancePeriod,
  parseSearch,
  paymentStatusOf,
  windowOf,
  type AuditQuery,
  parseAuditQuery,
  everyDay,
  type RevenuePoint,
  revenueSeries,
  type SeriesUnit,
  seriesUnitOf
} from "./domain"
import {
  AdminReadModel,
  type BookingPaymentRow,
  type BookingRow,
  type DailyCount,
  type Page,
  type ServiceRow,
  type StatusCount,
  type TopService,
  type TopUser,
  type UserRow
} from "./ports"

export const DEFAULT_PAGE_SIZE = 20
/** Top lists of the analytics page (spec section 9). */
export const TOP_LIMIT = 6

export interface ListInput {
  readonly page?: string | undefined
  readonly limit?: string | undefined
}
export interface Paged<A> extends Page<A> {
  readonly page: number
  readonly limit: number
}

export interface Dashboard {
  readonly users: { readonly total: number }
  readonly services: { readonly total: number; readonly available: number; readonly unavailable: number }
  readonly bookings: ReturnType<typeof bookingFigures>
  /**
   * Minor units of `currency` (README, "Figures"): `monthly` captured in the last 30 days, `monthlyCommissions`
   * the commissions of those 30 days, `pending` held on cards now (`pendingCount` authorisations),
   * `validated` captured less refunded since the start.
   */
  readonly revenue: {
    readonly monthly: number
    readonly monthlyCommissions: number
    readonly pending: number
    readonly pendingCount: number
    readonly validated: number
    readonly currency: string
  }
  readonly applications: { readonly pending: number }
  /** Disputes awaiting an administrator's decision, oldest first. */
  readonly disputes: ReadonlyArray<OpenDispute>
  readonly currencies: ReadonlyArray<string>
}

export interface FinancialStats extends FinancialFigures {
  readonly period: FinancePeriod
  readonly currency: string
  readonly currencies: ReadonlyArray<string>
  readonly from: Date
  readonly to: Date
  /** Revenue per day (week, month) or per UTC month (year), every bucket present, oldest first. */
  readonly series: { readonly unit: SeriesUnit; readonly points: ReadonlyArray<RevenuePoint> }
}

export interface Analytics {
  readonly period: AnalyticsPeriod
  readonly from: Date
  readonly topUsers: ReadonlyArray<TopUser>
  readonly topServices: ReadonlyArray<TopService>
  /** Per UTC day from `from` to today, days without any as 0. */
  readonly growth: { readonly users: ReadonlyArray<DailyCount>; readonly bookings: ReadonlyArray<DailyCount> }
  /** Bookings created in the period per status, most first. */
  readonly bookingsByStatus: ReadonlyArray<StatusCount>
}

export interface AdminBooking {
  readonly booking: BookingDetail
  /** The statuses an admin's "set status" may reach now (the transition function's answer for this admin). */
  readonly allowedStatuses: ReadonlyArray<string>
  /** The payment timeline, one event per operation: the same events the client and the provider read. */
  readonly payments: ReadonlyArray<PaymentEvent>
  /** The refunds made, oldest first, each with the admin's reason. */
  readonly refunds: ReadonlyArray<{
    readonly amountMinor: number
    readonly currency: string
    readonly reason: string | null
    readonly createdAt: Date
  }>
}

/** An audit entry with its actor's name when the actor is an account (the CLI's operator is none). */
export interface AuditLine extends AuditRecord {
  readonly actor: { readonly firstName: string; readonly lastName: string; readonly email: string } | null
}

type Query = Record<string, string | undefined>

/** Inclusive days (YYYY-MM-DD, UTC) and a currency; each optional (all of them when absent). */
export interface ExportRange {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly currency?: string | undefined
}

/** "PENDING", "paid", "all"... as the booking module's statuses (PAID: pending with a secured payment). */
const parseBookingStatus = (value: string | undefined): Either.Either<ReadonlyArray<string> | undefined, ValidationFailed> => {
  const text = (value ?? "").trim().toUpperCase()
  if (text === "" || text === "ALL") return Either.right(undefined)
  return text === "PAID" || (BookingStatuses as ReadonlyArray<string>).includes(text)
    ? Either.right([text])
    : Either.left(invalid([issue("status", "booking.invalidStatus")]))
}

/** Every row of a paged read, page after page (exports). */
const allPages = <A>(read: (limit: number, offset: number) => Effect.Effect<Page<A>>) =>
  Effect.gen(function* () {
    const rows: Array<A> = []
    for (let offset = 0; ; offset += 500) {
      const page = yield* read(500, offset)
      rows.push(...page.rows)
      if (page.rows.length < 500) return rows
    }
  })

export class Administration extends Context.Tag("administration/Administration")<
  Administration,
  {
    readonly dashboard: (
      actor: Actor,
      query: { readonly currency?: string | undefined }
    ) => Effect.Effect<Dashboard, Forbidden | ValidationFailed>
    readonly users: (actor: Actor, query: Query) => Effect.Effect<Paged<UserRow>, Forbidden | ValidationFailed>
    readonly updateUser: (
      actor: Actor,
      id: string,
      input: AccountChangeInput
    ) => Effect.Effect<UserRow, Forbidden | NotFound | Conflict | ValidationFailed>
    readonly createPaymentAccount: (
      actor: Actor,
      userId: string,
      country: string | undefined
    ) => Effect.Effect<{ readonly accountLink: string }, Forbidden | NotFound | Conflict | ValidationFailed | PaymentGatewayError>
    readonly paymentAccountLink: (
      actor: Actor,
      userId: string
    ) => Effect.Effect<{ readonly accountLink: string }, Forbidden | NotFound | PaymentGatewayError>
    readonly paymentAccountStatus: (actor: Actor, userId: string) => Effect.Effect<ConnectStatus, Forbidden | NotFound>
    readonly paymentAccountDashboard: (
      actor: Actor,
      userId: string
    ) => Effect.Effect<{ readonly dashboardUrl: string }, Forbidden | NotFound | Conflict | PaymentGatewayError>
    readonly deletePaymentAccount: (
      actor: Actor,
      userId: string
    ) => Effect.Effect<PaymentAccount, Forbidden | NotFound | PaymentGatewayError>
    readonly bookings: (actor: Actor, query: Query) => Effect.Effect<Paged<BookingRow>, Forbidden | ValidationFailed>
    readonly booking: (actor: Actor, id: string) => Effect.Effect<AdminBooking, Forbidden | NotFound>
    /** Decides a booking's open dispute (the booking module's ResolveDispute, with its money effects). */
    readonly resolveDispute: (
      actor: Actor,
      id: string,
      input: { readonly outcome?: unknown; readonly amountMinor?: unknown; readonly note?: unknown }
    ) => Effect.Effect<AdminBooking, Forbidden | NotFound | Conflict | ValidationFailed | BadGateway | BadRequest>
    /** Through the booking module's transition function as the admin actor, with its money effects. */
    readonly setBookingStatus: (
      actor: Actor,
      id: string,
      input: { readonly status?: string | undefined; readonly reason?: string | undefined }
    ) => Effect.Effect<AdminBooking, Forbidden | NotFound | Conflict | ValidationFailed | BadGateway | BadRequest>
    /** A refund through the booking module's one refund use case (`Bookings.refund`, also `payments:refund`). */
    readonly refundBooking: (
      actor: Actor,
      id: string,
      input: { readonly amountMinor?: unknown; readonly reason?: unknown }
    ) => Effect.Effect<AdminBooking, Forbidden | NotFound | Conflict | ValidationFailed | BadGateway | BadRequest>
    /** The audit log of admins' decisions, newest first, filtered (parseAuditQuery) and paged (AUDIT_PAGE_SIZE). */
    readonly auditLog: (actor: Actor, query: AuditQuery & ListInput) => Effect.Effect<Paged<AuditLine>, Forbidden | ValidationFailed>
    readonly services: (actor: Actor, query: Query) => Effect.Effect<Paged<ServiceRow>, Forbidden | ValidationFailed>
    readonly setServiceAvailability: (
      actor: Actor,
      id: string,
      isAvailable: unknown
    ) => Effect.Effect<ServiceListing, Forbidden | NotFound | Conflict | ValidationFailed>
    readonly financialStats: (
      actor: Actor,
      query: { readonly period?: string | undefined; readonly currency?: string | undefined }
    ) => Effect.Effect<FinancialStats, Forbidden | ValidationFailed>
    /** One row per booking with a payment in the currency (the most active one by default), latest first. */
    readonly payments: (
      actor: Actor,
      query: ListInput & { readonly currency?: string | undefined }
    ) => Effect.Effect<Paged<BookingPaymentRow> & { readonly currency: string }, Forbidden | ValidationFailed>
    readonly analytics: (
      actor: Actor,
      query: { readonly period?: string | undefined }
    ) => Effect.Effect<Analytics, Forbidden | ValidationFailed>
    /** CSV of the bookings starting in [from, to] (YYYY-MM-DD, inclusive days, UTC), in one currency when given. */
    readonly exportBookings: (actor: Actor, range: ExportRange) => Effect.Effect<string, Forbidden | ValidationFailed>
    /** CSV of the payment operations recorded in [from, to], in one currency when given. */
    readonly exportPayments: (actor: Actor, range: ExportRange) => Effect.Effect<string, Forbidden | ValidationFailed>
  }
>() {}

export const AdministrationLive = Layer.effect(
  Administration,
  Effect.gen(function* () {
    const read = yield* AdminReadModel
    const identity = yield* Identity
    const users = yield* UserRepository
    const bookings = yield* Bookings
    const catalogue = yield* Catalogue
    const accounts = yield* AdminPaymentAccounts
    const audit = yield* AuditTrail

    const admin = (actor: Actor) => requireRole(actor, "ADMIN")
    /** The user behind an id, a UUID (decoded at the HTTP edge, the payment account endpoints' only caller). */
    const targetUser = (id: string): Effect.Effect<User, NotFound> =>
      Effect.flatMap(users.findById(id.toLowerCase()), Option.match({ onNone: () => Effect.fail(UserNotFound), onSome: Effect.succeed }))

    const adminBooking = (actor: Actor, id: string) =>
      Effect.gen(function* () {
        const booking = yield* bookings.get(actor, id)
        const operations = yield* bookings.operations(actor, booking.id)
        return {
          booking,
          allowedStatuses: allowedAdminStatuses(booking, { _tag: "User", id: actor.id, role: actor.role }, yield* now),
          payments: paymentTimeline(operations, "admin"),
          // The refunds that gave money back (a failed one reads as failed in the timeline).
          refunds: operations
            .filter((o) => o.kind === "REFUND" && countsInFigures(o))
            .map((o) => ({ amountMinor: o.amountMinor, currency: o.currency, reason: o.detail, createdAt: o.createdAt }))
        } satisfies AdminBooking
      })

    const exportRange = (range: ExportRange) =>
      Effect.gen(function* () {
        const from = yield* parseDay("from", range.from, false)
        const to = yield* parseDay("to", range.to, true)
        const currency = yield* parseCurrency(range.currency)
        return { from, to, currency }
      })
    /** A bulk export handed to an admin: who took which rows (the range asked for and how many). */
    const recordExport = (
      actor: Actor,
      kind: "bookings" | "payments",
      range: { readonly from?: Date | undefined; readonly to?: Date | undefined; readonly currency?: string | undefined },
      rows: number
    ) =>
      audit.record({
        actorId: actor.id,
        action: kind === "bookings" ? "BOOKINGS_EXPORTED" : "PAYMENTS_EXPORTED",
        subject: { type: "EXPORT", id: kind },
        before: null,
        after: { from: range.from?.toISOString() ?? null, to: range.to?.toISOString() ?? null, currency: range.currency ?? null, rows }
      })

    /** The currency asked for, or the most active one; and every currency recorded. */
    const currencyOf = (value: string | undefined) =>
      Effect.gen(function* () {
        const asked = yield* parseCurrency(value)
        const currencies = yield* read.currencies
        return { currency: asked ?? defaultCurrency(currencies), currencies }
      })

    return {
      dashboard: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const { currency, currencies } = yield* currencyOf(query.currency)
          const at = yield* now
          const counts = yield* read.counts
          const held = yield* read.held(currency)
          const monthly = financialFigures(yield* read.operationTotals(currency, windowOf(FinancePeriods.month, at)), held)
          const allTime = financialFigures(yield* read.operationTotals(currency), held)
          return {
            users: { total: counts.users },
            services: {
              total: counts.services.total,
              available: counts.services.available,
              unavailable: counts.services.total - counts.services.available
            },
            bookings: bookingFigures(counts.bookingsByStatus),
            revenue: {
              monthly: monthly.grossRevenue,
              monthlyCommissions: monthly.totalCommissions,
              pending: held.amountMinor,
              pendingCount: held.count,
              validated: allTime.keptRevenue,
              currency
            },
            applications: { pending: counts.pendingApplications },
            disputes: yield* bookings.unresolvedDisputes(actor),
            currencies
          }
        }),

      users: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const search = yield* parseSearch(query.search)
          const roleText = (query.role ?? "").trim()
          let role: Role | undefined
          if (roleText !== "" && roleText.toUpperCase() !== "ALL") {
            role = parseRole(roleText)
            if (role === undefined) return yield* invalid([issue("role", "admin.roleInvalid")])
          }
          const isActive = yield* parseBooleanFilter("isActive", query.isActive)
          const { page, limit, offset } = pageOf(query, DEFAULT_PAGE_SIZE)
          return { ...(yield* read.users({ search, role, isActive, limit, offset })), page, limit }
        }),

      updateUser: (actor, id, input) =>
        Effect.gen(function* () {
          const user = yield* identity.administerAccount(actor, id, input)
          const rows = yield* read.users({ search: user.email, limit: 5, offset: 0 })
          return rows.rows.find((r) => r.id === user.id) ?? { ...user, paymentAccount: null }
        }),

      createPaymentAccount: (actor, userId, country) =>
        Effect.gen(function* () {
          yield* admin(actor)
          return yield* accounts.create(actor, yield* targetUser(userId), country)
        }),
      paymentAccountLink: (actor, userId) =>
        Effect.zipRight(
          admin(actor),
          Effect.flatMap(targetUser(userId), (user) => accounts.link(actor, user))
        ),
      paymentAccountStatus: (actor, userId) =>
        Effect.zipRight(
          admin(actor),
          Effect.flatMap(targetUser(userId), (user) => accounts.status(actor, user))
        ),
      paymentAccountDashboard: (actor, userId) =>
        Effect.zipRight(
          admin(actor),
          Effect.flatMap(targetUser(userId), (user) => accounts.dashboard(actor, user))
        ),
      deletePaymentAccount: (actor, userId) =>
        Effect.zipRight(
          admin(actor),
          Effect.flatMap(targetUser(userId), (user) => accounts.remove(actor, user))
        ),

      bookings: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const search = yield* parseSearch(query.search)
          const statuses = yield* parseBookingStatus(query.status)
          const { page, limit, offset } = pageOf(query, DEFAULT_PAGE_SIZE)
          return { ...(yield* read.bookings({ search, statuses, limit, offset })), page, limit }
        }),

      booking: (actor, id) => Effect.zipRight(admin(actor), adminBooking(actor, id)),

      resolveDispute: (actor, id, input) =>
        Effect.gen(function* () {
          yield* admin(actor)
          yield* bookings.resolveDispute(actor, id, input)
          return yield* adminBooking(actor, id)
        }),

      setBookingStatus: (actor, id, input) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const status = (input.status ?? "").trim()
          if (status === "") return yield* invalid([issue("status", "admin.statusRequired")])
          yield* bookings.adminSetStatus(actor, id, status, input.reason)
          return yield* adminBooking(actor, id)
        }),

      refundBooking: (actor, id, input) =>
        Effect.gen(function* () {
          yield* admin(actor)
          yield* bookings.refund(actor, id, input)
          return yield* adminBooking(actor, id)
        }),

      auditLog: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const criteria = yield* parseAuditQuery(query)
          const { page, limit, offset } = pageOf(query, AUDIT_PAGE_SIZE)
          let actorId: string | undefined
          if (criteria.actor !== undefined && "id" in criteria.actor) actorId = criteria.actor.id
          else if (criteria.actor !== undefined) {
            const found = yield* users.findByEmail(criteria.actor.email.toLowerCase())
            // Nobody with that address decided anything.
            if (Option.isNone(found)) return { rows: [], total: 0, page, limit }
            actorId = found.value.id
          }
          const found = yield* audit.list({ ...criteria, actorId, limit, offset })
          // The actors of a page are few (admins): one read each.
          const actors = new Map<string, AuditLine["actor"]>()
          for (const id of new Set(found.rows.map((r) => r.actorId))) {
            const user = yield* users.findById(id)
            actors.set(
              id,
              Option.match(user, { onNone: () => null, onSome: (u) => ({ firstName: u.firstName, lastName: u.lastName, email: u.email }) })
            )
          }
          return { rows: found.rows.map((r) => ({ ...r, actor: actors.get(r.actorId) ?? null })), total: found.total, page, limit }
        }),

      services: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const search = yield* parseSearch(query.search)
          const categoryId = yield* parseCategoryId(query.categoryId)
          const isAvailable = yield* parseBooleanFilter("isAvailable", query.isAvailable)
          const { page, limit, offset } = pageOf(query, DEFAULT_PAGE_SIZE)
          return { ...(yield* read.services({ search, categoryId, isAvailable, limit, offset })), page, limit }
        }),

      setServiceAvailability: (actor, id, isAvailable) =>
        Effect.gen(function* () {
          yield* admin(actor)
          if (typeof isAvailable !== "boolean") return yield* invalid([issue("isAvailable", "admin.isAvailableInvalid")])
          return yield* catalogue.setAvailability(actor, id, isAvailable)
        }),

      financialStats: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const period = yield* parseFinancePeriod(query.period)
          const { currency, currencies } = yield* currencyOf(query.currency)
          const window = windowOf(FinancePeriods[period], yield* now)
          const figures = financialFigures(yield* read.operationTotals(currency, window), yield* read.held(currency))
          const unit = seriesUnitOf(period)
          const points = revenueSeries(window, unit, yield* read.revenuePerDay(currency, window))
          return { ...figures, period, currency, currencies, from: window.from, to: window.to, series: { unit, points } }
        }),

      payments: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const { currency } = yield* currencyOf(query.currency)
          const { page, limit, offset } = pageOf(query, DEFAULT_PAGE_SIZE)
          return { ...(yield* read.bookingPayments({ currency, limit, offset })), page, limit, currency }
        }),

      analytics: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const period = yield* parseAnalyticsPeriod(query.period)
          const window = windowOf(period, yield* now)
          const { from } = window
          const growth = yield* read.growth(from)
          return {
            period,
            from,
            topUsers: yield* read.topUsers(from, TOP_LIMIT),
            topServices: yield* read.topServices(from, TOP_LIMIT),
            growth: { users: everyDay(window, growth.users), bookings: everyDay(window, growth.bookings) },
            bookingsByStatus: yield* read.bookingsByStatus(from)
          }
        }),

      exportBookings: (actor, range) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const { from, to, currency } = yield* exportRange(range)
          const rows = yield* allPages((limit, offset) => read.bookings({ from, to, currency, limit, offset }))
          yield* recordExport(actor, "bookings", { from, to, currency }, rows.length)
          return csv(
            [
              "id",
              "status",
              "paymentStatus",
              "startTime",
              "endTime",
              "service",
              "category",
              "clientName",
              "clientEmail",
              "providerName",
              "providerEmail",
              "totalMinor",
              "capturedMinor",
              "refundedMinor",
              "commissionMinor",
              "currency",
              "createdAt"
            ],
            rows.map((b) => [
              b.id,
              b.status,
              b.paymentStatus,
              b.startTime.toISOString(),
              b.endTime.toISOString(),
              b.service.title,
              b.service.categoryNameEn,
              `${b.client.firstName} ${b.client.lastName}`,
              b.client.email,
              `${b.provider.firstName} ${b.provider.lastName}`,
              b.provider.email,
              b.totalMinor,
              b.capturedMinor,
              b.refundedMinor,
              b.commissionMinor,
              b.currency,
              b.createdAt.toISOString()
            ])
          )
        }),

      exportPayments: (actor, range) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const { from, to, currency } = yield* exportRange(range)
          const rows = yield* allPages((limit, offset) => read.payments({ from, to, currency, limit, offset }))
          yield* recordExport(actor, "payments", { from, to, currency }, rows.length)
          return csv(
            [
              "id",
              "bookingId",
              "kind",
              "status",
              "amountMinor",
              "feeMinor",
              "currency",
              "paymentMethod",
              "service",
              "clientEmail",
              "providerEmail",
              "createdAt"
            ],
            rows.map((p) => [
              p.id,
              p.bookingId,
              p.kind,
              paymentStatusOf(p.kind, p.authorization, p.refundStatus),
              p.amountMinor,
              p.feeMinor,
              p.currency,
              p.paymentMethod,
              p.service.title,
              p.client.email,
              p.provider.email,
              p.createdAt.toISOString()
            ])
          )
        })
    }
  })
)

export { DEFAULT_CURRENCY }
