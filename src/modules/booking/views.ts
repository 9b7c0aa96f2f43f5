import type { Language } from "../../platform/messages"
import { currencySymbol, toMajor } from "../../platform/money"
import type { Role } from "../identity/domain"
import type { BookingView, CalendarEventView, RescheduleView, ReviewView } from "./contract"
import { amountDue, availableActions, type CancellationPolicy, displayStatus, freeCancellationUntil, lateCancellationFee } from "./domain"
import { formatAmount } from "./mails"
import type { BookingDetail, RescheduleRecord, ReviewRecord } from "./ports"

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
    notes: b.notes,
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
