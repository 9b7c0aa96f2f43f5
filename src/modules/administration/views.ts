import type { Language } from "../../platform/messages"
import { displayStatus, refundableOf, toDisputeSummaryView } from "../booking"
import type {
  AuditEntryView,
  AdminBookingPaymentView,
  AdminBookingRowView,
  AdminBookingView,
  AdminServiceView,
  AdminUserView,
  AnalyticsView,
  DashboardView,
  FinancialStatsView
} from "./contract"
import type { BookingPaymentRow, BookingRow, ServiceRow, UserRow } from "./ports"
import type { AdminBooking, Analytics, AuditLine, Dashboard, FinancialStats } from "./service"

// Back-office records turned into the contract's views (contract.ts), by the handlers.

export const toAdminUserView = (u: UserRow): typeof AdminUserView.Type => ({
  ...u,
  stripeAccountId: u.paymentAccount?.accountId ?? null,
  paymentAccount: u.paymentAccount
    ? {
        ...u.paymentAccount,
        isComplete: u.paymentAccount.chargesEnabled && u.paymentAccount.payoutsEnabled && u.paymentAccount.detailsSubmitted
      }
    : null
})

export const toAdminBookingRowView = (b: BookingRow, language: Language): typeof AdminBookingRowView.Type => ({
  ...b,
  paymentIssue: b.paymentIssue ?? null,
  displayStatus: displayStatus(b as Parameters<typeof displayStatus>[0]),
  service: {
    id: b.service.id,
    title: b.service.title,
    category: { name: language === "en" ? b.service.categoryNameEn : b.service.categoryNameFr }
  }
})

export const toAdminBookingView = (
  { booking: b, payments, refunds, allowedStatuses }: AdminBooking,
  language: Language
): typeof AdminBookingView.Type => ({
  id: b.id,
  status: b.status,
  displayStatus: displayStatus(b),
  paymentStatus: b.paymentStatus,
  totalMinor: b.totalMinor,
  currency: b.currency,
  createdAt: b.createdAt,
  updatedAt: b.updatedAt,
  startTime: b.startTime,
  endTime: b.endTime,
  providerTimeZone: b.provider.timeZone,
  clientTimeZone: b.client.timeZone,
  durationHours: Math.ceil((b.endTime.getTime() - b.startTime.getTime()) / 3_600_000),
  isReviewed: b.review !== null,
  address: b.address,
  notes: b.notes,
  rejectionReason: b.rejectionReason,
  cancellationReason: b.cancellationReason,
  authorizedMinor: b.authorizedMinor,
  capturedMinor: b.capturedMinor,
  refundedMinor: b.refundedMinor,
  paymentIssue: b.paymentIssue,
  dispute: b.dispute === null ? null : toDisputeSummaryView(b.dispute, b, language),
  service: {
    id: b.service.id,
    title: b.service.title,
    hourlyPriceMinor: b.hourlyPriceMinor,
    category: { name: language === "en" ? b.service.categoryNameEn : b.service.categoryNameFr }
  },
  client: {
    id: b.client.id,
    firstName: b.client.firstName,
    lastName: b.client.lastName,
    email: b.client.email,
    phoneNumber: b.client.phoneNumber
  },
  provider: { id: b.provider.id, firstName: b.provider.firstName, lastName: b.provider.lastName, email: b.provider.email },
  payments,
  refunds,
  allowedStatuses,
  refundableMinor: refundableOf(b),
  reviews: b.review
    ? [
        {
          rating: b.review.rating,
          comment: b.review.comment || null,
          createdAt: b.review.createdAt,
          client: { firstName: b.client.firstName, lastName: b.client.lastName }
        }
      ]
    : []
})

export const toAdminServiceView = (s: ServiceRow, language: Language): typeof AdminServiceView.Type => ({
  ...s,
  category: { id: s.category.id, name: language === "en" ? s.category.nameEn : s.category.nameFr }
})

export const toAdminBookingPaymentView = (p: BookingPaymentRow): typeof AdminBookingPaymentView.Type => p

export const toDashboardView = (d: Dashboard): typeof DashboardView.Type => ({ ...d, userCurrency: d.revenue.currency })

export const toFinancialStatsView = (s: FinancialStats): typeof FinancialStatsView.Type => s

export const toAnalyticsView = (a: Analytics): typeof AnalyticsView.Type => ({
  ...a,
  topUsers: a.topUsers.map(({ services, bookingsAsClient, bookingsAsProvider, reviewsAsProvider, reviewsAsClient, ...u }) => ({
    ...u,
    counts: { services, bookingsAsClient, bookingsAsProvider, reviewsAsProvider, reviewsAsClient }
  }))
})

export const toAuditEntryView = ({ subject, ...entry }: AuditLine): typeof AuditEntryView.Type => ({
  ...entry,
  subjectType: subject.type,
  subjectId: subject.id
})
