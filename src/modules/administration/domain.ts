import { Either } from "effect"
import { countsInFigures, type RefundStatus } from "../payments"
import { type FieldIssue, invalid, issue, type ValidationFailed } from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { type Currency, isCurrency } from "../../platform/money"
import {
  type AdminPaymentStatus,
  AdminPaymentStatuses,
  type AuditAction,
  AuditActions,
  type AuditSubjectType,
  AuditSubjectTypes
} from "./rules"

// ---- Periods ---------------------------------------------------------------------------------

const DAY = 24 * 60 * 60 * 1000

/** The financial page's periods (spec section 2, /admin/financial), as rolling windows ending now. */
export const FinancePeriods = { week: 7, month: 30, year: 365 } as const
export type FinancePeriod = keyof typeof FinancePeriods
/** The analytics page's periods, in days (spec section 9). */
export const AnalyticsPeriods = [7, 30, 90, 365] as const
export type AnalyticsPeriod = (typeof AnalyticsPeriods)[number]

export interface Window {
  readonly from: Date
  readonly to: Date
}

/** The last `days` days up to `now` (rolling, so "month" is the last 30 days whatever the calendar). */
export const windowOf = (days: number, now: Date): Window => ({ from: new Date(now.getTime() - days * DAY), to: now })

/** week, month (default) or year, any case. */
export const parseFinancePeriod = (value: string | undefined): Either.Either<FinancePeriod, ValidationFailed> => {
  const text = (value ?? "").trim().toLowerCase()
  if (text === "") return Either.right("month")
  return text in FinancePeriods
    ? Either.right(text as FinancePeriod)
    : Either.left(invalid([issue("period", "admin.financePeriodInvalid")]))
}

/** 7, 30 (default), 90 or 365 days. */
export const parseAnalyticsPeriod = (value: string | undefined): Either.Either<AnalyticsPeriod, ValidationFailed> => {
  const text = (value ?? "").trim()
  if (text === "") return Either.right(30)
  const n = Number(text)
  return (AnalyticsPeriods as ReadonlyArray<number>).includes(n)
    ? Either.right(n as AnalyticsPeriod)
    : Either.left(invalid([issue("period", "admin.analyticsPeriodInvalid")]))
}

// ---- Money -------------------------------------------------------------------------------------

/** The marketplace's commission on each transaction (spec section 1): the application fee of a capture. */
export const COMMISSION_RATE = 0.05
/** The currency shown when no payment was ever recorded (spec section 9: CAD by default for revenue). */
export const DEFAULT_CURRENCY = "CAD"

/**
 * The currency asked for (any case), one the product accepts (platform/money.ts); none when not
 * given: the caller then shows the most active one (`defaultCurrency`).
 */
export const parseCurrency = (value: string | undefined): Either.Either<Currency | undefined, ValidationFailed> => {
  const text = (value ?? "").trim().toUpperCase()
  if (text === "") return Either.right(undefined)
  return isCurrency(text) ? Either.right(text) : Either.left(invalid([issue("currency", "admin.currencyInvalid")]))
}

/**
 * Revenue is reported in one currency at a time, never converted. Without a choice: the currency with
 * the most payment operations (`currencies` comes most used first), so a marketplace paid in euros
 * never opens on "0 CAD"; CAD when nothing was ever recorded.
 */
export const defaultCurrency = (currencies: ReadonlyArray<string>): string => currencies[0] ?? DEFAULT_CURRENCY

/** The gateway operations recorded by the booking module (payment_operations.kind). */
export const OperationKinds = ["AUTHORIZATION", "CARD_SAVED", "CAPTURE", "CANCELLATION", "REFUND", "FAILURE"] as const
export type OperationKind = (typeof OperationKinds)[number]

export { type AdminPaymentStatus, AdminPaymentStatuses } from "./rules"

/** What became of an authorisation: still held, captured (in whole or part), or released (or replaced by a renewal). */
export type AuthorizationState = "HELD" | "CAPTURED" | "RELEASED"

/**
 * What one operation did, as the ledger (a booking's detail, the payments CSV) shows it: an
 * authorisation is PENDING only while it is held (COMPLETED once captured, CANCELLED once released or
 * replaced); a capture COMPLETED, a refund REFUNDED, a release CANCELLED, a failure FAILED.
 */
export const paymentStatusOf = (
  kind: OperationKind,
  authorization: AuthorizationState | null = null,
  refundStatus: RefundStatus | null = null
): AdminPaymentStatus => {
  switch (kind) {
    case "CAPTURE":
      return "COMPLETED"
    case "AUTHORIZATION":
      return authorization === "CAPTURED" ? "COMPLETED" : authorization === "RELEASED" ? "CANCELLED" : "PENDING"
    case "CARD_SAVED":
      return "PENDING"
    case "REFUND":
      return !countsInFigures({ refundStatus }) ? "FAILED" : refundStatus === "pending" ? "PENDING" : "REFUNDED"
    case "CANCELLATION":
      return "CANCELLED"
    case "FAILURE":
      return "FAILED"
  }
}

/** Sums of one kind of operation over a window, in one currency. */
export interface OperationTotal {
  readonly kind: OperationKind
  readonly count: number
  readonly amountMinor: number
  readonly feeMinor: number
}

/** The authorisations still held now (see `isHeld`): how many, and their amount. */
export interface Held {
  readonly count: number
  readonly amountMinor: number
}

/**
 * The finance page's figures (all in minor units of one currency; README, "Figures"). Flows are the
 * operations recorded in the period; `held` is a snapshot (authorisations held now, whatever their age).
 */
export interface FinancialFigures {
  /** Captured (charged to clients) in the period. */
  readonly grossRevenue: number
  /** Refunded to clients in the period. */
  readonly refundedAmount: number
  /** Gross less refunds: the money kept. */
  readonly keptRevenue: number
  /** The platform's commission: the application fees of the captures less those given back with the refunds (5% each). */
  readonly totalCommissions: number
  /** Kept less commissions: what the providers get. */
  readonly netRevenue: number
  /** Commissions as a percentage of the money kept, two decimals (0 when nothing is kept). */
  readonly commissionMargin: number
  /** Authorised on cards and not captured nor released yet (now). */
  readonly heldAmount: number
  /** Captures and failures of the period; `pending`: authorisations held now. */
  readonly payments: { readonly completed: number; readonly pending: number; readonly failed: number }
  readonly revenueByStatus: ReadonlyArray<{ readonly status: AdminPaymentStatus; readonly count: number; readonly amountMinor: number }>
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** The finance page's figures from the operation totals of a period and the holds open now. */
export const financialFigures = (totals: ReadonlyArray<OperationTotal>, held: Held): FinancialFigures => {
  const of = (kind: OperationKind) => totals.filter((t) => t.kind === kind)
  const sum = (kind: OperationKind, field: "count" | "amountMinor" | "feeMinor") => of(kind).reduce((acc, r) => acc + r[field], 0)
  const grossRevenue = sum("CAPTURE", "amountMinor")
  const refundedAmount = sum("REFUND", "amountMinor")
  const keptRevenue = grossRevenue - refundedAmount
  const totalCommissions = sum("CAPTURE", "feeMinor") - sum("REFUND", "feeMinor")
  const row = (status: AdminPaymentStatus, count: number, amountMinor: number) => (count > 0 ? [{ status, count, amountMinor }] : [])
  return {
    grossRevenue,
    refundedAmount,
    keptRevenue,
    totalCommissions,
    netRevenue: keptRevenue - totalCommissions,
    commissionMargin: keptRevenue > 0 ? round2((totalCommissions / keptRevenue) * 100) : 0,
    heldAmount: held.amountMinor,
    payments: { completed: sum("CAPTURE", "count"), pending: held.count, failed: sum("FAILURE", "count") },
    revenueByStatus: [
      ...row("COMPLETED", sum("CAPTURE", "count"), grossRevenue),
      ...row("PENDING", held.count, held.amountMinor),
      ...row("REFUNDED", sum("REFUND", "count"), refundedAmount),
      ...row("CANCELLED", sum("CANCELLATION", "count"), sum("CANCELLATION", "amountMinor")),
      ...row("FAILED", sum("FAILURE", "count"), sum("FAILURE", "amountMinor"))
    ]
  }
}

// ---- Series for the charts --------------------------------------------------------------------

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** The UTC days from `from`'s to `to`'s, both included, oldest first. */
export const utcDays = (from: Date, to: Date): ReadonlyArray<string> => {
  const days: Array<string> = []
  const last = utcDay(to)
  for (let t = Date.parse(utcDay(from)); ; t += DAY) {
    const d = utcDay(new Date(t))
    if (d > last) break
    days.push(d)
  }
  return days
}

/**
 * Counts per UTC day over a window with the days without any as 0 (a chart's x axis must not skip
 * days); counts dated outside the window are left out.
 */
export const everyDay = (
  window: Window,
  counts: ReadonlyArray<{ readonly date: string; readonly count: number }>
): ReadonlyArray<{ readonly date: string; readonly count: number }> => {
  const byDay = new Map<string, number>()
  for (const c of counts) byDay.set(c.date, (byDay.get(c.date) ?? 0) + c.count)
  return utcDays(window.from, window.to).map((date) => ({ date, count: byDay.get(date) ?? 0 }))
}

/** Revenue buckets: a day for the week and the month, a calendar month (UTC) for the year. */
export type SeriesUnit = "day" | "month"
export const seriesUnitOf = (period: FinancePeriod): SeriesUnit => (period === "year" ? "month" : "day")

/** The money of one UTC day (or bucket), in minor units of one currency. */
export interface RevenuePoint {
  /** YYYY-MM-DD: the day, or the first day of the month. */
  readonly start: string
  /** Captured (charged to clients). */
  readonly grossMinor: number
  readonly refundedMinor: number
  /** Capture fees less refund fees. */
  readonly commissionMinor: number
}

/**
 * The revenue per day or per month over a window, every bucket present (0 when nothing moved), from
 * the sums per UTC day: sums are exact integers, so the buckets add up to the period's totals.
 */
export const revenueSeries = (window: Window, unit: SeriesUnit, days: ReadonlyArray<RevenuePoint>): ReadonlyArray<RevenuePoint> => {
  const keyOf = (day: string) => (unit === "day" ? day : `${day.slice(0, 7)}-01`)
  const buckets = new Map<string, { grossMinor: number; refundedMinor: number; commissionMinor: number }>()
  for (const day of utcDays(window.from, window.to)) buckets.set(keyOf(day), { grossMinor: 0, refundedMinor: 0, commissionMinor: 0 })
  for (const d of days) {
    const bucket = buckets.get(keyOf(d.start))
    if (bucket === undefined) continue
    bucket.grossMinor += d.grossMinor
    bucket.refundedMinor += d.refundedMinor
    bucket.commissionMinor += d.commissionMinor
  }
  return [...buckets].map(([start, sums]) => ({ start, ...sums }))
}

// ---- A booking's payment ------------------------------------------------------------------------

/** One recorded operation, as the rules below read it. */
export interface OperationFact {
  readonly id: string
  readonly bookingId: string
  readonly kind: OperationKind
  readonly amountMinor: number
  readonly feeMinor: number
  readonly paymentIntentId: string | null
  readonly createdAt: Date
}

/** Recording order: time, then id (as the SQL orders them). */
export const recordedOrder = (a: OperationFact, b: OperationFact) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * Whether an authorisation is still held: no capture nor release of its payment intent is recorded,
 * and no later authorisation of its booking replaced it (a renewal takes a new hold and the gateway
 * releases the old one; a booking holds one authorisation at a time).
 */
export const isHeld = (authorization: OperationFact, bookingOperations: ReadonlyArray<OperationFact>) =>
  authorization.kind === "AUTHORIZATION" &&
  !bookingOperations.some(
    (o) =>
      ((o.kind === "CAPTURE" || o.kind === "CANCELLATION") &&
        o.paymentIntentId !== null &&
        o.paymentIntentId === authorization.paymentIntentId) ||
      (o.kind === "AUTHORIZATION" && recordedOrder(o, authorization) > 0)
  )

/** The state of an authorisation among its booking's operations (null for any other operation). */
export const authorizationState = (
  operation: Pick<OperationFact, "kind" | "paymentIntentId">,
  bookingOperations: ReadonlyArray<Pick<OperationFact, "kind" | "paymentIntentId" | "id" | "createdAt">>,
  held: boolean
): AuthorizationState | null =>
  operation.kind !== "AUTHORIZATION"
    ? null
    : held
      ? "HELD"
      : bookingOperations.some((o) => o.kind === "CAPTURE" && o.paymentIntentId !== null && o.paymentIntentId === operation.paymentIntentId)
        ? "CAPTURED"
        : "RELEASED"

/** A booking's payment as the finance page lists it: one row per booking, whatever its operations. */
export interface BookingPaymentFacts {
  readonly capturedMinor: number
  readonly refundedMinor: number
  /** Capture fees less refund fees. */
  readonly commissionMinor: number
  /** The amount of the authorisation held now (0: none). */
  readonly heldMinor: number
  /** The last authorised amount (held, captured or released). */
  readonly authorizedMinor: number
  readonly released: boolean
}

/**
 * Captured and refunded in full: REFUNDED; captured: COMPLETED; held: PENDING; released: CANCELLED;
 * otherwise (failures only) FAILED.
 */
export const bookingPaymentStatus = (p: BookingPaymentFacts): AdminPaymentStatus =>
  p.capturedMinor > 0
    ? p.refundedMinor >= p.capturedMinor
      ? "REFUNDED"
      : "COMPLETED"
    : p.heldMinor > 0
      ? "PENDING"
      : p.released
        ? "CANCELLED"
        : "FAILED"

/** The amount a booking's payment row shows: captured, or else the last authorised amount. */
export const bookingPaymentAmount = (p: BookingPaymentFacts) => (p.capturedMinor > 0 ? p.capturedMinor : p.authorizedMinor)

/** The facts of one booking's operations (card-saved steps move no money and change nothing). */
export const bookingPaymentFacts = (operations: ReadonlyArray<OperationFact>): BookingPaymentFacts => {
  const sum = (kind: OperationKind, field: "amountMinor" | "feeMinor") =>
    operations.filter((o) => o.kind === kind).reduce((acc, o) => acc + o[field], 0)
  const authorizations = operations.filter((o) => o.kind === "AUTHORIZATION").sort(recordedOrder)
  const held = authorizations.filter((a) => isHeld(a, operations))
  return {
    capturedMinor: sum("CAPTURE", "amountMinor"),
    refundedMinor: sum("REFUND", "amountMinor"),
    commissionMinor: sum("CAPTURE", "feeMinor") - sum("REFUND", "feeMinor"),
    heldMinor: held.reduce((acc, a) => acc + a.amountMinor, 0),
    authorizedMinor: authorizations.at(-1)?.amountMinor ?? 0,
    released: operations.some((o) => o.kind === "CANCELLATION")
  }
}

// ---- Dashboard ---------------------------------------------------------------------------------

export type BookingCounts = Readonly<Record<string, number>>

/**
 * Bookings brought to term (COMPLETED by the client or VALIDATED) among those that were not
 * refused or cancelled, as a percentage with one decimal; 0 when there are none.
 */
export const validationRate = (counts: BookingCounts) => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0)
  const closedWithout = (counts.REJECTED ?? 0) + (counts.CANCELLED ?? 0)
  const done = (counts.COMPLETED ?? 0) + (counts.VALIDATED ?? 0)
  const considered = total - closedWithout
  return considered > 0 ? Math.round((done / considered) * 1000) / 10 : 0
}

export const bookingFigures = (counts: BookingCounts) => ({
  total: Object.values(counts).reduce((a, b) => a + b, 0),
  pending: counts.PENDING ?? 0,
  confirmed: counts.CONFIRMED ?? 0,
  completed: counts.COMPLETED ?? 0,
  validated: counts.VALIDATED ?? 0,
  /** Started and not yet closed: IN_PROGRESS and SERVICE_RENDERED. */
  ongoing: (counts.IN_PROGRESS ?? 0) + (counts.SERVICE_RENDERED ?? 0),
  cancelled: counts.CANCELLED ?? 0,
  rejected: counts.REJECTED ?? 0,
  validationRate: validationRate(counts)
})

// ---- List filters ----------------------------------------------------------------------------

export const SEARCH_MAX = 200

export const parseSearch = (value: string | undefined): Either.Either<string | undefined, ValidationFailed> => {
  const text = (value ?? "").trim()
  if (text.length > SEARCH_MAX) return Either.left(invalid([issue("search", "admin.searchTooLong")]))
  return Either.right(text === "" ? undefined : text)
}

/** "true"/"false" (any case), or absent/"all" for no filter. */
export const parseBooleanFilter = (field: string, value: string | undefined): Either.Either<boolean | undefined, ValidationFailed> => {
  const text = (value ?? "").trim().toLowerCase()
  if (text === "" || text === "all") return Either.right(undefined)
  if (text === "true" || text === "active" || text === "available") return Either.right(true)
  if (text === "false" || text === "inactive" || text === "unavailable") return Either.right(false)
  return Either.left(invalid([issue(field, field === "isActive" ? "admin.isActiveFilterInvalid" : "admin.isAvailableInvalid")]))
}

export const parseCategoryId = (value: string | undefined): Either.Either<number | undefined, ValidationFailed> => {
  const text = (value ?? "").trim()
  if (text === "" || text.toLowerCase() === "all") return Either.right(undefined)
  const n = Number(text)
  return Number.isSafeInteger(n) && n > 0 && n < 2 ** 31
    ? Either.right(n)
    : Either.left(invalid([issue("categoryId", "admin.categoryIdInvalid")]))
}

/** A YYYY-MM-DD day (export bounds); `end` gives the start of the next day so the bound is inclusive. */
export const parseDay = (field: string, value: string | undefined, end: boolean): Either.Either<Date | undefined, ValidationFailed> => {
  if (value === undefined || value.trim() === "") return Either.right(undefined)
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim())
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value.trim()) {
    return Either.left(invalid([issue(field, "admin.dateInvalid")]))
  }
  return Either.right(end ? new Date(date.getTime() + DAY) : date)
}

// ---- The audit log's filters (/admin/audit, `audit:list`) ------------------------------------------

export interface AuditQuery {
  readonly action?: string | undefined
  /** An administrator's id, or their email address. */
  readonly actor?: string | undefined
  readonly subjectType?: string | undefined
  readonly subjectId?: string | undefined
  /** Days, YYYY-MM-DD (UTC), both inclusive. */
  readonly from?: string | undefined
  readonly to?: string | undefined
}

export interface AuditCriteria {
  readonly action: AuditAction | undefined
  readonly actor: { readonly id: string } | { readonly email: string } | undefined
  readonly subjectType: AuditSubjectType | undefined
  readonly subjectId: string | undefined
  readonly from: Date | undefined
  /** Exclusive: the day after the `to` day. */
  readonly to: Date | undefined
}

const blank = (value: string | undefined) => value === undefined || value.trim() === "" || value.trim().toUpperCase() === "ALL"

/** The audit log's filters, every problem reported at once (422 per field); absent or "ALL" means no filter. */
export const parseAuditQuery = (query: AuditQuery): Either.Either<AuditCriteria, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const action = blank(query.action) ? undefined : query.action!.trim().toUpperCase()
  if (action !== undefined && !(AuditActions as ReadonlyArray<string>).includes(action))
    problems.push(issue("action", "admin.auditActionInvalid"))
  const subjectType = blank(query.subjectType) ? undefined : query.subjectType!.trim().toUpperCase()
  if (subjectType !== undefined && !(AuditSubjectTypes as ReadonlyArray<string>).includes(subjectType))
    problems.push(issue("subjectType", "admin.auditSubjectTypeInvalid"))
  const actorText = (query.actor ?? "").trim()
  const actor =
    actorText === "" ? undefined : isUuid(actorText) ? { id: actorText.toLowerCase() } : /@/.test(actorText) ? { email: actorText } : null
  if (actor === null) problems.push(issue("actor", "admin.auditActorInvalid"))
  const subjectText = (query.subjectId ?? "").trim()
  const subjectId = subjectText === "" ? undefined : isUuid(subjectText) ? subjectText.toLowerCase() : subjectText
  const from = parseDay("from", query.from, false)
  const to = parseDay("to", query.to, true)
  if (Either.isLeft(from)) problems.push(...from.left.details)
  if (Either.isLeft(to)) problems.push(...to.left.details)
  else if (Either.isRight(from) && from.right !== undefined && to.right !== undefined && to.right <= from.right)
    problems.push(issue("to", "admin.dateInvalid"))
  if (problems.length > 0 || Either.isLeft(from) || Either.isLeft(to)) return Either.left(invalid(problems))
  return Either.right({
    action: action as AuditAction | undefined,
    actor: actor ?? undefined,
    subjectType: subjectType as AuditSubjectType | undefined,
    subjectId,
    from: from.right,
    to: to.right
  })
}

// ---- CSV ---------------------------------------------------------------------------------------

// One CSV writer for every export (the providers' earnings too): platform/csv.ts.
export { csv, csvField } from "../../platform/csv"
