import { type Language, translate } from "../../platform/messages"
import { currencySymbol, toMajor } from "../../platform/money"
import type { Role } from "../identity/domain"
import type {
  BookingView,
  CalendarEventView,
  DisputeFileView,
  DisputeSummaryView,
  DisputeView,
  EarningView,
  EarningsPage,
  ReceiptView,
  RescheduleView,
  ReviewView
} from "./contract"
import { amountDue, availableActions, type CancellationPolicy, displayStatus, freeCancellationUntil, lateCancellationFee } from "./domain"
import { pagination } from "../../platform/paging"
import { formatAmount } from "./mails"
import type { BookingDetail, DisputeFileRecord, DisputeSummary, DisputeThread, RescheduleRecord, ReviewRecord } from "./ports"
import { type Earnings, methodText, periodText, rateText, type Receipt, type ReceiptIssuer } from "./receipts"
import { COMMISSION_PERCENT } from "./domain"
import { maskContactDetails } from "../messaging/contact-details/rules"
import { formatWithZone } from "../../platform/time-zones"
import { type EarningLine, type EarningTotal, receiptNumber } from "./statements"

// Booking records turned into the contract's views (contract.ts), by the handlers.

const currencyNames: Record<Language, Intl.DisplayNames> = {
  fr: new Intl.DisplayNames(["fr"], { type: "currency" }),
  en: new Intl.DisplayNames(["en"], { type: "currency" })
}

export const toRescheduleView = (
  r: RescheduleRecord,
  b: BookingDetail,
  viewer: { readonly id: string; readonly role: Role },
  language: Language,
  now: Date
): RescheduleView => {
  const proposedBy = r.proposedBy === "CLIENT" ? "client" : "provider"
  const answerer = proposedBy === "client" ? b.providerId : b.clientId
  return {
    id: r.id,
    proposedBy,
    startTime: r.startTime,
    endTime: r.endTime,
    duration: Math.round((r.endTime.getTime() - r.startTime.getTime()) / 60_000),
    totalMinor: r.totalMinor,
    formattedTotal: formatAmount(language, r.totalMinor, b.currency),
    previousStartTime: r.previousStartTime,
    previousEndTime: r.previousEndTime,
    previousTotalMinor: r.previousTotalMinor,
    status: r.status,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    decidedAt: r.decidedAt,
    decidedBy: r.decidedBy,
    canAnswer: r.status === "OPEN" && viewer.id === answerer && now.getTime() < r.expiresAt.getTime()
  }
}

/** The policy applied to this booking for this viewer: only the client pays a late fee. */
const cancellationTerms = (
  b: BookingDetail,
  role: "client" | "provider" | "admin",
  language: Language,
  now: Date,
  policy: CancellationPolicy
): BookingView["cancellation"] => {
  const feeMinor = role === "client" ? lateCancellationFee(b, policy, now) : 0
  return {
    freeUntil: freeCancellationUntil(b, policy),
    feePercent: policy.feePercent,
    feeMinor,
    formattedFee: formatAmount(language, feeMinor, b.currency),
    chargedMinor: b.cancellationFeeMinor,
    formattedCharged: formatAmount(language, b.cancellationFeeMinor, b.currency)
  }
}

/** A dispute as the booking shows it: what was kept is the booking's resolvedCaptureMinor. */
export const toDisputeSummaryView = (d: DisputeSummary, b: BookingDetail, language: Language): typeof DisputeSummaryView.Type => {
  const kept = d.status === "RESOLVED" ? (b.resolvedCaptureMinor ?? 0) : null
  return {
    id: d.id,
    reason: d.reason,
    status: d.status,
    openedAt: d.openedAt,
    outcome: d.outcome,
    keptMinor: kept,
    formattedKept: kept === null ? null : formatAmount(language, kept, b.currency),
    note: d.note,
    resolvedAt: d.resolvedAt
  }
}

const toDisputeFileView = (f: DisputeFileRecord, bookingId: string): typeof DisputeFileView.Type => ({
  id: f.id,
  fileName: f.fileName,
  contentType: f.contentType,
  size: f.size,
  url: `/api/bookings/${bookingId}/dispute/files/${f.id}`
})

export const toDisputeView = (t: DisputeThread, b: BookingDetail, language: Language): typeof DisputeView.Type => ({
  ...toDisputeSummaryView(t, b, language),
  bookingId: b.id,
  description: t.description,
  files: t.files.filter((f) => f.messageId === null).map((f) => toDisputeFileView(f, b.id)),
  messages: t.messages.map((m) => ({
    id: m.id,
    author: m.authorRole === "CLIENT" ? "client" : m.authorRole === "PROVIDER" ? "provider" : "admin",
    authorName: m.authorName,
    body: m.body,
    createdAt: m.createdAt,
    files: t.files.filter((f) => f.messageId === m.id).map((f) => toDisputeFileView(f, b.id))
  })),
  canWrite: t.status === "OPEN" && b.status === "DISPUTED"
})

/** Statuses in which the provider has no agreed booking: a request, refused or cancelled (once cancelled, they no longer need the details). */
const NOT_AGREED: ReadonlyArray<string> = ["PENDING", "REJECTED", "CANCELLED"]

/**
 * The notes as `role` reads them: the client wrote them, an admin reads everything; the provider
 * reads contact details masked until the booking is agreed, as in messages (private until booked).
 */
const notesAsRead = (b: Pick<BookingDetail, "notes" | "status">, role: "client" | "provider" | "admin") => {
  const masking = maskContactDetails(b.notes)
  const masked = masking.masked && NOT_AGREED.includes(b.status)
  return { notes: masked && role === "provider" ? masking.text : b.notes, notesMasked: masked }
}

export const toBookingView = (
  b: BookingDetail,
  viewer: { readonly id: string; readonly role: Role },
  language: Language,
  now: Date,
  policy: CancellationPolicy
): BookingView => {
  const role = viewer.id === b.clientId ? "client" : viewer.id === b.providerId ? "provider" : "admin"
  const price = toMajor(b.hourlyPriceMinor, b.currency)
  const currency = { code: b.currency, symbol: currencySymbol(b.currency) }
  return {
    id: b.id,
    serviceId: b.serviceId,
    service: {
      id: b.service.id,
      title: b.service.title,
      description: b.service.description,
      category: { name: language === "fr" ? b.service.categoryNameFr : b.service.categoryNameEn },
      currency: b.currency,
      price,
      formattedPrice: formatAmount(language, b.hourlyPriceMinor, b.currency),
      originalPrice: price,
      originalCurrency: currency,
      userCurrency: { ...currency, name: currencyNames[language].of(b.currency) ?? b.currency }
    },
    provider: { id: b.provider.id, firstName: b.provider.firstName, lastName: b.provider.lastName },
    client: { id: b.client.id, firstName: b.client.firstName, lastName: b.client.lastName },
    clientId: b.clientId,
    providerId: b.providerId,
    providerTimeZone: b.provider.timeZone,
    clientTimeZone: b.client.timeZone,
    startTime: b.startTime,
    endTime: b.endTime,
    date: b.startTime.toISOString().slice(0, 10),
    duration: Math.round((b.endTime.getTime() - b.startTime.getTime()) / 60_000),
    address: b.address,
    ...notesAsRead(b, role),
    totalPrice: toMajor(b.totalMinor, b.currency),
    totalMinor: b.totalMinor,
    currency: b.currency,
    formattedTotal: formatAmount(language, b.totalMinor, b.currency),
    amountDueMinor: amountDue(b),
    formattedAmountDue: formatAmount(language, amountDue(b), b.currency),
    status: b.status,
    displayStatus: displayStatus(b),
    paymentStatus: b.paymentStatus,
    role,
    actions: availableActions(b, { _tag: "User", id: viewer.id, role: viewer.role }, now),
    rejectionReason: b.rejectionReason,
    cancelledBy: b.cancelledBy,
    cancellationReason: b.cancellationReason,
    cancellation: cancellationTerms(b, role, language, now, policy),
    holdExpiresAt: b.holdExpiresAt,
    renderedAt: b.renderedAt,
    paymentIssue: role === "admin" ? b.paymentIssue : null,
    isReviewed: b.review !== null,
    review: b.review,
    openProposal: ((open) => (open ? toRescheduleView(open, b, viewer, language, now) : null))(
      b.reschedules.find((r) => r.status === "OPEN" || r.status === "AWAITING_PAYMENT")
    ),
    reschedules: b.reschedules.map((r) => toRescheduleView(r, b, viewer, language, now)),
    dispute: b.dispute === null ? null : toDisputeSummaryView(b.dispute, b, language),
    createdAt: b.createdAt,
    updatedAt: b.updatedAt
  }
}

export const toCalendarEventView = (b: BookingDetail): typeof CalendarEventView.Type => ({
  id: b.id,
  title: `${b.service.title} - ${b.client.firstName}`,
  serviceId: b.serviceId,
  clientFirstName: b.client.firstName,
  clientLastName: b.client.lastName,
  startTime: b.startTime,
  endTime: b.endTime,
  status: b.status,
  displayStatus: displayStatus(b)
})

export const toReviewView = (r: ReviewRecord): typeof ReviewView.Type => ({
  id: r.id,
  rating: r.rating,
  comment: r.comment,
  createdAt: r.createdAt,
  client: r.client
})

/**
 * A receipt as its page shows it, in the request's language (times in the client's zone, named),
 * issued by `siteName` (SITE_NAME).
 */
export const toReceiptView = (receipt: Receipt, language: Language, issuer: ReceiptIssuer): ReceiptView => {
  const { booking: b, figures } = receipt
  const zone = b.client.timeZone
  const money = (minor: number) => formatAmount(language, minor, b.currency)
  return {
    bookingId: b.id,
    number: receiptNumber(b.id),
    platform: issuer.name,
    platformEmail: issuer.email,
    address: b.address,
    formattedPeriod: periodText(language, b),
    formattedRate: rateText(language, b),
    paymentMethod: methodText(language, receipt.method),
    taxNote: translate(language, "receipt.taxes"),
    providerShare:
      receipt.reader === "client"
        ? null
        : {
            percent: COMMISSION_PERCENT,
            commissionMinor: figures.commissionMinor,
            formattedCommission: money(figures.commissionMinor),
            netMinor: figures.netPaidMinor - figures.commissionMinor,
            formattedNet: money(figures.netPaidMinor - figures.commissionMinor)
          },
    service: { title: b.service.title },
    provider: { firstName: b.provider.firstName, lastName: b.provider.lastName, postalAddress: receipt.postal.provider },
    client: { firstName: b.client.firstName, lastName: b.client.lastName, postalAddress: receipt.postal.client },
    startTime: b.startTime,
    endTime: b.endTime,
    clientTimeZone: zone,
    formattedStartTime: formatWithZone(language, b.startTime, zone),
    currency: b.currency,
    paidMinor: figures.paidMinor,
    formattedPaid: money(figures.paidMinor),
    paidAt: figures.paidAt,
    formattedPaidAt: formatWithZone(language, figures.paidAt, zone),
    refunds: figures.refunds.map((r) => ({
      amountMinor: r.amountMinor,
      formattedAmount: money(r.amountMinor),
      refundedAt: r.at,
      formattedRefundedAt: formatWithZone(language, r.at, zone)
    })),
    refundedMinor: figures.refundedMinor,
    formattedRefunded: money(figures.refundedMinor),
    netPaidMinor: figures.netPaidMinor,
    formattedNetPaid: money(figures.netPaidMinor),
    pdfPath: `/api/bookings/${b.id}/receipt.pdf`
  }
}

const moneyOf = (language: Language, t: Omit<EarningTotal, "heldMinor" | "bookings"> | EarningLine) => ({
  grossMinor: t.grossMinor,
  commissionMinor: t.commissionMinor,
  netMinor: t.netMinor,
  refundedMinor: t.refundedMinor,
  formattedGross: formatAmount(language, t.grossMinor, t.currency),
  formattedCommission: formatAmount(language, t.commissionMinor, t.currency),
  formattedNet: formatAmount(language, t.netMinor, t.currency),
  formattedRefunded: formatAmount(language, t.refundedMinor, t.currency)
})

export const toEarningView = (line: EarningLine, language: Language): EarningView => ({
  bookingId: line.bookingId,
  serviceTitle: line.serviceTitle,
  clientName: line.clientName,
  startTime: line.startTime,
  date: line.date,
  month: line.month,
  state: line.state,
  currency: line.currency,
  ...moneyOf(language, line)
})

const toEarningTotalView = (total: EarningTotal, language: Language) => ({
  currency: total.currency,
  ...moneyOf(language, total),
  heldMinor: total.heldMinor,
  formattedHeld: formatAmount(language, total.heldMinor, total.currency),
  bookings: total.bookings
})

/** One page of a provider's earnings with the totals of every line. */
export const toEarningsPage = (
  earnings: Earnings,
  page: { readonly page: number; readonly limit: number; readonly offset: number },
  language: Language
): typeof EarningsPage.Type => ({
  earnings: earnings.lines.slice(page.offset, page.offset + page.limit).map((line) => toEarningView(line, language)),
  pagination: pagination(earnings.lines.length, page.page, page.limit),
  totals: {
    byCurrency: earnings.totals.byCurrency.map((t) => toEarningTotalView(t, language)),
    byMonth: earnings.totals.byMonth.map((t) => ({ ...toEarningTotalView(t, language), month: t.month }))
  },
  commissionPercent: COMMISSION_PERCENT,
  timeZone: earnings.timeZone
})
