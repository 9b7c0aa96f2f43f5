import { Either } from "effect"
import { invalid, issue, type ValidationFailed } from "../../platform/errors"
import { type AdminPaymentStatus, AdminPaymentStatuses } from "./rules"

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
/** Revenue is reported in one currency at a time (no conversion); CAD by default (spec section 9). */
export const DEFAULT_CURRENCY = "CAD"

export const parseCurrency = (value: string | undefined): Either.Either<string, ValidationFailed> => {
  const text = (value ?? "").trim().toUpperCase()
  if (text === "") return Either.right(DEFAULT_CURRENCY)
  return /^[A-Z]{3}$/.test(text) ? Either.right(text) : Either.left(invalid([issue("currency", "admin.currencyInvalid")]))
}

/** The gateway operations recorded by the booking module (payment_operations.kind). */
export const OperationKinds = ["AUTHORIZATION", "CARD_SAVED", "CAPTURE", "CANCELLATION", "REFUND", "FAILURE"] as const
export type OperationKind = (typeof OperationKinds)[number]

export { type AdminPaymentStatus, AdminPaymentStatuses } from "./rules"

export const paymentStatusOf = (kind: OperationKind): AdminPaymentStatus => {
  switch (kind) {
    case "CAPTURE":
      return "COMPLETED"
    case "AUTHORIZATION":
    case "CARD_SAVED":
      return "PENDING"
    case "REFUND":
      return "REFUNDED"
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

export interface FinancialFigures {
  /** Captured (charged) amounts. */
  readonly grossRevenue: number
  /** The application fees kept on captures, less those given back with refunds. */
  readonly totalCommissions: number
  /** Gross revenue less refunds. */
  readonly netRevenue: number
  /** Commissions as a percentage of net revenue, two decimals (0 without revenue). */
  readonly commissionMargin: number
  readonly refundedAmount: number
  readonly payments: { readonly completed: number; readonly pending: number; readonly failed: number }
  readonly revenueByStatus: ReadonlyArray<{ readonly status: AdminPaymentStatus; readonly count: number; readonly amountMinor: number }>
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** The financial page's figures from the operation totals of a window (all amounts in minor units). */
export const financialFigures = (totals: ReadonlyArray<OperationTotal>): FinancialFigures => {
  const of = (kind: OperationKind) => totals.filter((t) => t.kind === kind)
  const sum = (rows: ReadonlyArray<OperationTotal>, field: "count" | "amountMinor" | "feeMinor") =>
    rows.reduce((acc, r) => acc + r[field], 0)
  const grossRevenue = sum(of("CAPTURE"), "amountMinor")
  const refundedAmount = sum(of("REFUND"), "amountMinor")
  const totalCommissions = sum(of("CAPTURE"), "feeMinor") - sum(of("REFUND"), "feeMinor")
  const netRevenue = grossRevenue - refundedAmount
  const byStatus = new Map<AdminPaymentStatus, { count: number; amountMinor: number }>()
  for (const t of totals) {
    const status = paymentStatusOf(t.kind)
    const entry = byStatus.get(status) ?? { count: 0, amountMinor: 0 }
    byStatus.set(status, { count: entry.count + t.count, amountMinor: entry.amountMinor + t.amountMinor })
  }
  return {
    grossRevenue,
    totalCommissions,
    netRevenue,
    commissionMargin: netRevenue > 0 ? round2((totalCommissions / netRevenue) * 100) : 0,
    refundedAmount,
    payments: {
      completed: sum(of("CAPTURE"), "count"),
      pending: sum(of("AUTHORIZATION"), "count") + sum(of("CARD_SAVED"), "count"),
      failed: sum(of("FAILURE"), "count")
    },
    revenueByStatus: AdminPaymentStatuses.flatMap((status) => {
      const entry = byStatus.get(status)
      return entry ? [{ status, ...entry }] : []
    })
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

// ---- CSV ---------------------------------------------------------------------------------------

// One CSV writer for every export (the providers' earnings too): platform/csv.ts.
export { csv, csvField } from "../../platform/csv"
