import type { Language } from "../../platform/messages"
import { currencySymbol, toMajor } from "../../platform/money"
import type { Role } from "../identity/domain"
import type {
  BookingView,
  CalendarEventView,
  DisputeFileView,
  DisputeSummaryView,
  DisputeView,
  RescheduleView,
  ReviewView
} from "./contract"
import { availableActions, displayStatus } from "./domain"
import { formatAmount } from "./mails"
import type { BookingDetail, DisputeFileRecord, DisputeSummary, DisputeThread, RescheduleRecord, ReviewRecord } from "./ports"

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

export const toBookingView = (
  b: BookingDetail,
  viewer: { readonly id: string; readonly role: Role },
  language: Language,
  now: Date
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
    notes: b.notes,
    totalPrice: toMajor(b.totalMinor, b.currency),
    totalMinor: b.totalMinor,
    currency: b.currency,
    formattedTotal: formatAmount(language, b.totalMinor, b.currency),
    status: b.status,
    displayStatus: displayStatus(b),
    paymentStatus: b.paymentStatus,
    role,
    actions: availableActions(b, { _tag: "User", id: viewer.id, role: viewer.role }, now),
    rejectionReason: b.rejectionReason,
    cancelledBy: b.cancelledBy,
    cancellationReason: b.cancellationReason,
    holdExpiresAt: b.holdExpiresAt,
    renderedAt: b.renderedAt,
    paymentIssue: role === "admin" ? b.paymentIssue : null,
    isReviewed: b.review !== null,
    review: b.review,
    openProposal: ((open) => (open ? toRescheduleView(open, b, viewer, language, now) : null))(
      b.reschedules.find((r) => r.status === "OPEN")
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
