import { majorText } from "../../platform/money"
import { dayOf } from "../../platform/zoned-time"
import { commissionOf, type PaymentStatus } from "./domain"
import type { EarningState } from "./rules"
import type { PaymentOperation } from "./ports"
import { countsInFigures } from "../payments"

// Receipts for clients and earnings for providers (issue 13, item 5): pure figures in integer minor
// units, read from the payment records (payment_operations) as the settlement wrote them: the amounts
// captured and refunded. The platform's commission is 5% of what is kept (captured − refunded), by the
// rule that computes the application fee of a capture (`commissionOf`): one rounding, on the kept
// amount, so 0 ≤ commission ≤ gross however many partial refunds there were (summing the fees
// recorded with each capture and refund would round once per row).

type Operation = Pick<PaymentOperation, "kind" | "amountMinor" | "feeMinor"> &
  Partial<Pick<PaymentOperation, "refundStatus">> & { readonly createdAt: Date }

/** What a receipt says about the money, in the booking's currency. */
export interface ReceiptFigures {
  /** Captured in all (the sum of the captures). */
  readonly paidMinor: number
  /** When the money was taken: the first capture. */
  readonly paidAt: Date
  /** Each refund, oldest first. */
  readonly refunds: ReadonlyArray<{ readonly amountMinor: number; readonly at: Date }>
  readonly refundedMinor: number
  /** What the client paid in the end: captured − refunded. */
  readonly netPaidMinor: number
  /** The platform's commission kept: taken at each capture, less what each refund gave back. */
  readonly commissionMinor: number
}

const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)
const byTime = (a: Operation, b: Operation) => a.createdAt.getTime() - b.createdAt.getTime()

/** The receipt's figures, or undefined while nothing was captured (no receipt yet). */
export const receiptFigures = (operations: ReadonlyArray<Operation>): ReceiptFigures | undefined => {
  const captures = operations.filter((o) => o.kind === "CAPTURE" && o.amountMinor > 0).sort(byTime)
  const first = captures[0]
  if (first === undefined) return undefined
  // A refund the gateway failed gave nothing back: not on the receipt.
  const refundOperations = operations.filter((o) => o.kind === "REFUND" && o.amountMinor > 0 && countsInFigures(o)).sort(byTime)
  const refunds = refundOperations.map((o) => ({ amountMinor: o.amountMinor, at: o.createdAt }))
  const paidMinor = sum(captures.map((o) => o.amountMinor))
  const refundedMinor = sum(refunds.map((r) => r.amountMinor))
  const commissionMinor = sum(captures.map((o) => o.feeMinor)) - sum(refundOperations.map((o) => o.feeMinor))
  return { paidMinor, paidAt: first.createdAt, refunds, refundedMinor, netPaidMinor: paidMinor - refundedMinor, commissionMinor }
}

// Crockford's base 32: no I, L, O or U, so a number read aloud or typed is not mistaken.
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/**
 * A receipt's number people can read out and type: "R-7F3K-9Q2M-X4TD", 60 random bits of the
 * booking's UUID v4 (its first 15 hex digits but the version digit) in Crockford's base 32. Among a
 * million receipts two share a number with a chance of about 4 in 10 million.
 */
export const receiptNumber = (bookingId: string): string => {
  const hex = bookingId.replace(/-/g, "").toLowerCase()
  let bits = BigInt(`0x${(hex.slice(0, 12) + hex.slice(13, 16)).padEnd(15, "0")}`)
  let digits = ""
  for (let i = 0; i < 12; i++) {
    digits = CROCKFORD[Number(bits & 31n)] + digits
    bits >>= 5n
  }
  return `R-${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`
}

/**
 * A typed receipt number in its printed form ("r-7f3k 9q2m x4td" → "R-7F3K-9Q2M-X4TD"; Crockford's
 * look-alikes O, I and L read as 0, 1 and 1), or undefined when it is not one.
 */
export const parseReceiptNumber = (typed: string): string | undefined => {
  const compact = typed.toUpperCase().replace(/[\s-]/g, "")
  // The "R" before the number is optional (the number itself may begin with an R).
  const digits = (compact.length === 13 && compact.startsWith("R") ? compact.slice(1) : compact).replace(/O/g, "0").replace(/[IL]/g, "1")
  if (!/^[0-9A-HJKMNP-TV-Z]{12}$/.test(digits)) return undefined
  return `R-${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`
}

/**
 * The beginning of the booking ids a typed receipt number names, as a `LIKE` pattern on the id's
 * text: how an administrator finds a booking from the receipt a client quotes. Undefined when it is not one.
 */
export const receiptIdPattern = (typed: string): string | undefined => {
  const number = parseReceiptNumber(typed)
  if (number === undefined) return undefined
  let bits = 0n
  for (const digit of number.slice(2).replace(/-/g, "")) bits = (bits << 5n) | BigInt(CROCKFORD.indexOf(digit))
  const hex = bits.toString(16).padStart(15, "0")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-_${hex.slice(12)}-%`
}

// ---- Earnings ----------------------------------------------------------------------------------

export { EarningStates, type EarningState } from "./rules"

/** One booking of a provider with its payment records summed (the repository's `earningSources`). */
export interface EarningSource {
  readonly bookingId: string
  readonly serviceTitle: string
  readonly clientFirstName: string
  readonly clientLastName: string
  readonly startTime: Date
  readonly currency: string
  readonly paymentStatus: PaymentStatus
  readonly totalMinor: number
  /** The booking's current hold (0 when none). */
  readonly authorizedMinor: number
  /** Sums of the booking's CAPTURE and REFUND rows. */
  readonly capturedMinor: number
  readonly refundedMinor: number
  /** The first capture, and the latest authorisation (of the hold still open). */
  readonly capturedAt: Date | null
  readonly authorizedAt: Date | null
}

export interface EarningLine {
  readonly bookingId: string
  readonly serviceTitle: string
  readonly clientName: string
  readonly startTime: Date
  readonly currency: string
  readonly state: EarningState
  /** Captured − refunded (HELD: the amount the hold would capture). */
  readonly grossMinor: number
  /** The platform's 5% of the gross (commissionOf). */
  readonly commissionMinor: number
  /** gross − commission: what the provider keeps. */
  readonly netMinor: number
  readonly refundedMinor: number
  /** When the money was taken (HELD: when the hold was made). */
  readonly date: Date
  /** That date's month in the provider's zone, "YYYY-MM". */
  readonly month: string
}

/**
 * A booking's earning line, or undefined when it holds no money for the provider (never paid,
 * released). A hold is shown with what its capture would give (the same commission rule).
 */
export const earningLine = (source: EarningSource, zone: string): EarningLine | undefined => {
  const common = {
    bookingId: source.bookingId,
    serviceTitle: source.serviceTitle,
    clientName: `${source.clientFirstName} ${source.clientLastName}`.trim(),
    startTime: source.startTime,
    currency: source.currency
  }
  if (source.capturedMinor > 0 && source.capturedAt !== null) {
    const grossMinor = source.capturedMinor - source.refundedMinor
    const commissionMinor = commissionOf(grossMinor)
    const state: EarningState =
      source.refundedMinor === 0 ? "CAPTURED" : source.refundedMinor >= source.capturedMinor ? "REFUNDED" : "PARTIALLY_REFUNDED"
    return {
      ...common,
      state,
      grossMinor,
      commissionMinor,
      netMinor: grossMinor - commissionMinor,
      refundedMinor: source.refundedMinor,
      date: source.capturedAt,
      month: dayOf(source.capturedAt, zone).slice(0, 7)
    }
  }
  if (source.paymentStatus === "AUTHORIZED" && source.authorizedMinor > 0) {
    const grossMinor = Math.min(source.totalMinor, source.authorizedMinor)
    const commissionMinor = commissionOf(grossMinor)
    const date = source.authorizedAt ?? source.startTime
    return {
      ...common,
      state: "HELD",
      grossMinor,
      commissionMinor,
      netMinor: grossMinor - commissionMinor,
      refundedMinor: 0,
      date,
      month: dayOf(date, zone).slice(0, 7)
    }
  }
  return undefined
}

/** Sums of one currency (and month): the money kept, and apart from it the money still held. */
export interface EarningTotal {
  readonly currency: string
  readonly grossMinor: number
  readonly commissionMinor: number
  readonly netMinor: number
  readonly refundedMinor: number
  /** Gross of the holds not captured yet: not earned yet, never added to the figures above. */
  readonly heldMinor: number
  readonly bookings: number
}

export interface EarningTotals {
  /** Per currency, currencies in alphabetical order. */
  readonly byCurrency: ReadonlyArray<EarningTotal>
  /** Per month and currency, newest month first. */
  readonly byMonth: ReadonlyArray<EarningTotal & { readonly month: string }>
}

const emptyTotal = (currency: string): EarningTotal => ({
  currency,
  grossMinor: 0,
  commissionMinor: 0,
  netMinor: 0,
  refundedMinor: 0,
  heldMinor: 0,
  bookings: 0
})

const add = (total: EarningTotal, line: EarningLine): EarningTotal =>
  line.state === "HELD"
    ? { ...total, heldMinor: total.heldMinor + line.grossMinor, bookings: total.bookings + 1 }
    : {
        ...total,
        grossMinor: total.grossMinor + line.grossMinor,
        commissionMinor: total.commissionMinor + line.commissionMinor,
        netMinor: total.netMinor + line.netMinor,
        refundedMinor: total.refundedMinor + line.refundedMinor,
        bookings: total.bookings + 1
      }

/** Totals per currency and per month and currency: amounts of different currencies are never added. */
export const earningTotals = (lines: ReadonlyArray<EarningLine>): EarningTotals => {
  const currencies = new Map<string, EarningTotal>()
  const months = new Map<string, EarningTotal & { readonly month: string }>()
  for (const line of lines) {
    currencies.set(line.currency, add(currencies.get(line.currency) ?? emptyTotal(line.currency), line))
    const key = `${line.month} ${line.currency}`
    months.set(key, { ...add(months.get(key) ?? emptyTotal(line.currency), line), month: line.month })
  }
  return {
    byCurrency: [...currencies.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    byMonth: [...months.values()].sort((a, b) => b.month.localeCompare(a.month) || a.currency.localeCompare(b.currency))
  }
}

/** The provider's lines, newest money first. */
export const earningLines = (sources: ReadonlyArray<EarningSource>, zone: string): ReadonlyArray<EarningLine> =>
  sources
    .flatMap((source) => {
      const line = earningLine(source, zone)
      return line === undefined ? [] : [line]
    })
    .sort((a, b) => b.date.getTime() - a.date.getTime() || a.bookingId.localeCompare(b.bookingId))

/**
 * The CSV export's columns. Amounts are decimal numbers in the row's currency ("19.00" EUR, "5000"
 * JPY), with a point whatever the language, as a spreadsheet reads numbers from a CSV file; a
 * provider adding up a column gets euros, not cents.
 */
export const EARNINGS_CSV_HEADER = [
  "bookingId",
  "date",
  "month",
  "service",
  "client",
  "state",
  "currency",
  "gross",
  "commission",
  "net",
  "refunded",
  "startTime"
] as const

export const earningsCsvRows = (lines: ReadonlyArray<EarningLine>) =>
  lines.map((l) => [
    l.bookingId,
    l.date.toISOString(),
    l.month,
    l.serviceTitle,
    l.clientName,
    l.state,
    l.currency,
    majorText(l.grossMinor, l.currency),
    majorText(l.commissionMinor, l.currency),
    majorText(l.netMinor, l.currency),
    majorText(l.refundedMinor, l.currency),
    l.startTime.toISOString()
  ])
