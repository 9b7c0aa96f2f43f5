import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Ok, Pagination, PayloadText } from "../../platform/http/envelope"
import type { Language } from "../../platform/messages"
// The contract files, not the indexes: their index loads their handlers, which load the app's HttpApi (a cycle).
import { Authentication } from "../identity/contract"
import { Role } from "../identity/domain"
import { ConnectStatusView } from "../payments/contract"
import { displayStatus } from "../booking/domain"
import { type OperationKind, type PaymentStatus, PaymentStatuses, paymentStatusOf } from "./domain"
import type { PaymentRow, ServiceRow, UserRow, BookingRow } from "./ports"
import type { AdminBooking, Analytics, Dashboard, FinancialStats } from "./service"

// ---- Views -----------------------------------------------------------------------------------

const Person = Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String, email: Schema.String })
const Status = Schema.Literal(...(PaymentStatuses as [PaymentStatus, ...Array<PaymentStatus>]))

export const AdminUserView = Schema.Struct({
  id: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  email: Schema.String,
  phoneNumber: Schema.String,
  role: Role,
  isActive: Schema.Boolean,
  isEmailVerified: Schema.Boolean,
  preferredLanguage: Schema.String,
  createdAt: Schema.Date,
  stripeAccountId: Schema.NullOr(Schema.String),
  /** The provider's connected account as last recorded; `isComplete` when it takes charges and payouts. */
  paymentAccount: Schema.NullOr(
    Schema.Struct({
      accountId: Schema.String,
      chargesEnabled: Schema.Boolean,
      payoutsEnabled: Schema.Boolean,
      detailsSubmitted: Schema.Boolean,
      isComplete: Schema.Boolean
    })
  )
})
export const toAdminUserView = (u: UserRow): typeof AdminUserView.Type => ({
  ...u,
  stripeAccountId: u.paymentAccount?.accountId ?? null,
  paymentAccount: u.paymentAccount
    ? { ...u.paymentAccount, isComplete: u.paymentAccount.chargesEnabled && u.paymentAccount.payoutsEnabled && u.paymentAccount.detailsSubmitted }
    : null
})

export const AdminBookingRowView = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  /** PAID for a pending booking whose payment is secured. */
  displayStatus: Schema.String,
  paymentStatus: Schema.String,
  startTime: Schema.Date,
  endTime: Schema.Date,
  totalMinor: Schema.Number,
  capturedMinor: Schema.Number,
  refundedMinor: Schema.Number,
  currency: Schema.String,
  createdAt: Schema.Date,
  service: Schema.Struct({ id: Schema.String, title: Schema.String, category: Schema.Struct({ name: Schema.String }) }),
  client: Person,
  provider: Person
})
export const toAdminBookingRowView = (b: BookingRow, language: Language): typeof AdminBookingRowView.Type => ({
  ...b,
  displayStatus: displayStatus(b as Parameters<typeof displayStatus>[0]),
  service: { id: b.service.id, title: b.service.title, category: { name: language === "en" ? b.service.categoryNameEn : b.service.categoryNameFr } }
})

const PaymentView = Schema.Struct({
  kind: Schema.String,
  status: Status,
  amountMinor: Schema.Number,
  feeMinor: Schema.Number,
  currency: Schema.String,
  paymentMethod: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  /** On a capture: what was refunded of the booking since. */
  refundedMinor: Schema.NullOr(Schema.Number)
})
/** An operation as the screens show it; a capture also tells what was refunded of its booking since. */
const paymentViewOf = <O extends { readonly kind: OperationKind }>(operation: O, bookingRefundedMinor: number) => ({
  ...operation,
  status: paymentStatusOf(operation.kind),
  refundedMinor: operation.kind === "CAPTURE" ? bookingRefundedMinor : null
})

export const AdminBookingView = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  displayStatus: Schema.String,
  paymentStatus: Schema.String,
  totalMinor: Schema.Number,
  currency: Schema.String,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  startTime: Schema.Date,
  endTime: Schema.Date,
  /** Whole hours, rounded up (the detail screen). */
  durationHours: Schema.Number,
  isReviewed: Schema.Boolean,
  address: Schema.String,
  notes: Schema.String,
  rejectionReason: Schema.NullOr(Schema.String),
  cancellationReason: Schema.NullOr(Schema.String),
  authorizedMinor: Schema.Number,
  capturedMinor: Schema.Number,
  refundedMinor: Schema.Number,
  service: Schema.Struct({ id: Schema.String, title: Schema.String, hourlyPriceMinor: Schema.Number, category: Schema.Struct({ name: Schema.String }) }),
  client: Schema.Struct({ ...Person.fields, phoneNumber: Schema.String }),
  provider: Person,
  payments: Schema.Array(PaymentView),
  reviews: Schema.Array(
    Schema.Struct({
      rating: Schema.Number,
      comment: Schema.NullOr(Schema.String),
      createdAt: Schema.Date,
      client: Schema.Struct({ firstName: Schema.String, lastName: Schema.String })
    })
  )
})
export const toAdminBookingView = ({ booking: b, operations }: AdminBooking, language: Language): typeof AdminBookingView.Type => ({
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
  durationHours: Math.ceil((b.endTime.getTime() - b.startTime.getTime()) / 3_600_000),
  isReviewed: b.review !== null,
  address: b.address,
  notes: b.notes,
  rejectionReason: b.rejectionReason,
  cancellationReason: b.cancellationReason,
  authorizedMinor: b.authorizedMinor,
  capturedMinor: b.capturedMinor,
  refundedMinor: b.refundedMinor,
  service: {
    id: b.service.id,
    title: b.service.title,
    hourlyPriceMinor: b.hourlyPriceMinor,
    category: { name: language === "en" ? b.service.categoryNameEn : b.service.categoryNameFr }
  },
  client: { id: b.client.id, firstName: b.client.firstName, lastName: b.client.lastName, email: b.client.email, phoneNumber: b.client.phoneNumber },
  provider: { id: b.provider.id, firstName: b.provider.firstName, lastName: b.provider.lastName, email: b.provider.email },
  payments: operations.map((o) =>
    paymentViewOf({ kind: o.kind, amountMinor: o.amountMinor, feeMinor: o.feeMinor, currency: o.currency, paymentMethod: o.paymentMethod, createdAt: o.createdAt }, b.refundedMinor)
  ),
  reviews: b.review
    ? [{ rating: b.review.rating, comment: b.review.comment || null, createdAt: b.review.createdAt, client: { firstName: b.client.firstName, lastName: b.client.lastName } }]
    : []
})

export const AdminServiceView = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  category: Schema.Struct({ id: Schema.Number, name: Schema.String }),
  provider: Person,
  priceMinor: Schema.Number,
  currency: Schema.String,
  isAvailable: Schema.Boolean,
  location: Schema.String,
  createdAt: Schema.Date
})
export const toAdminServiceView = (s: ServiceRow, language: Language): typeof AdminServiceView.Type => ({
  ...s,
  category: { id: s.category.id, name: language === "en" ? s.category.nameEn : s.category.nameFr }
})

export const AdminPaymentView = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  ...PaymentView.fields,
  service: Schema.Struct({ id: Schema.String, title: Schema.String }),
  client: Person,
  provider: Person
})
export const toAdminPaymentView = ({ bookingRefundedMinor, ...p }: PaymentRow): typeof AdminPaymentView.Type => ({
  ...p,
  ...paymentViewOf(p, bookingRefundedMinor)
})

const Count = Schema.Number
export const DashboardView = Schema.Struct({
  users: Schema.Struct({ total: Count }),
  services: Schema.Struct({ total: Count, available: Count, unavailable: Count }),
  bookings: Schema.Struct({
    total: Count, pending: Count, confirmed: Count, completed: Count, validated: Count, ongoing: Count, cancelled: Count, rejected: Count,
    validationRate: Schema.Number
  }),
  revenue: Schema.Struct({ monthly: Count, pending: Count, validated: Count, currency: Schema.String }),
  applications: Schema.Struct({ pending: Count }),
  userCurrency: Schema.String,
  currencies: Schema.Array(Schema.String)
})
export const toDashboardView = (d: Dashboard): typeof DashboardView.Type => ({ ...d, userCurrency: d.revenue.currency })

export const FinancialStatsView = Schema.Struct({
  period: Schema.String,
  currency: Schema.String,
  currencies: Schema.Array(Schema.String),
  from: Schema.Date,
  to: Schema.Date,
  grossRevenue: Count,
  totalCommissions: Count,
  netRevenue: Count,
  commissionMargin: Schema.Number,
  refundedAmount: Count,
  payments: Schema.Struct({ completed: Count, pending: Count, failed: Count }),
  revenueByStatus: Schema.Array(Schema.Struct({ status: Status, count: Count, amountMinor: Count }))
})
export const toFinancialStatsView = (s: FinancialStats): typeof FinancialStatsView.Type => s

const Daily = Schema.Array(Schema.Struct({ date: Schema.String, count: Count }))
export const AnalyticsView = Schema.Struct({
  period: Schema.Number,
  from: Schema.Date,
  topUsers: Schema.Array(
    Schema.Struct({
      ...Person.fields,
      role: Role,
      counts: Schema.Struct({ services: Count, bookingsAsClient: Count, bookingsAsProvider: Count, reviewsAsProvider: Count, reviewsAsClient: Count })
    })
  ),
  topServices: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      title: Schema.String,
      priceMinor: Count,
      currency: Schema.String,
      rating: Schema.Number,
      reviewCount: Count,
      provider: Schema.Struct({ firstName: Schema.String, lastName: Schema.String }),
      bookings: Count
    })
  ),
  growth: Schema.Struct({ users: Daily, bookings: Daily })
})
export const toAnalyticsView = (a: Analytics): typeof AnalyticsView.Type => ({
  ...a,
  topUsers: a.topUsers.map(({ services, bookingsAsClient, bookingsAsProvider, reviewsAsProvider, reviewsAsClient, ...u }) => ({
    ...u,
    counts: { services, bookingsAsClient, bookingsAsProvider, reviewsAsProvider, reviewsAsClient }
  }))
})

// ---- Contract --------------------------------------------------------------------------------

const id = HttpApiSchema.param("id", Schema.String)
const Text = Schema.optional(PayloadText)
const ListParams = { page: Schema.optional(Schema.String), limit: Schema.optional(Schema.String) }

/** The back-office (spec admin-and-onboarding section 7): every endpoint is ADMIN only. */
export class AdministrationApi extends HttpApiGroup.make("administration")
  .add(
    HttpApiEndpoint.get("dashboard", "/dashboard")
      .setUrlParams(Schema.Struct({ currency: Schema.optional(Schema.String), lat: Schema.optional(Schema.String), lng: Schema.optional(Schema.String) }))
      .addSuccess(Ok(DashboardView))
  )
  .add(
    HttpApiEndpoint.get("users", "/users")
      .setUrlParams(Schema.Struct({ search: Schema.optional(Schema.String), role: Schema.optional(Schema.String), isActive: Schema.optional(Schema.String), ...ListParams }))
      .addSuccess(Ok(Schema.Struct({ users: Schema.Array(AdminUserView), pagination: Pagination })))
  )
  .add(
    HttpApiEndpoint.patch("updateUser")`/users/${id}/status`
      // Loosely typed on purpose: wrong values are 422s with field details.
      .setPayload(Schema.Struct({ isActive: Schema.optional(Schema.Unknown), role: Schema.optional(Schema.Unknown) }))
      .addSuccess(Ok(Schema.Struct({ user: AdminUserView })))
  )
  .add(
    HttpApiEndpoint.post("createPaymentAccount")`/users/${id}/stripe-connect`
      .setPayload(Schema.Struct({ country: Text }))
      .addSuccess(Ok(Schema.Struct({ accountLink: Schema.String })), { status: 201 })
  )
  .add(HttpApiEndpoint.get("paymentAccountLink")`/users/${id}/stripe-connect/link`.addSuccess(Ok(Schema.Struct({ accountLink: Schema.String }))))
  .add(HttpApiEndpoint.get("paymentAccountStatus")`/users/${id}/stripe-connect/status`.addSuccess(Ok(ConnectStatusView)))
  .add(HttpApiEndpoint.get("paymentAccountDashboard")`/users/${id}/stripe-connect/dashboard`.addSuccess(Ok(Schema.Struct({ dashboardUrl: Schema.String }))))
  .add(HttpApiEndpoint.del("deletePaymentAccount")`/users/${id}/stripe-connect`.addSuccess(Ok(Schema.Struct({ deleted: Schema.Literal(true), accountId: Schema.String }))))
  .add(
    HttpApiEndpoint.get("bookings", "/bookings")
      .setUrlParams(Schema.Struct({ search: Schema.optional(Schema.String), status: Schema.optional(Schema.String), ...ListParams }))
      .addSuccess(Ok(Schema.Struct({ bookings: Schema.Array(AdminBookingRowView), pagination: Pagination })))
  )
  .add(HttpApiEndpoint.get("booking")`/bookings/${id}`.addSuccess(Ok(Schema.Struct({ booking: AdminBookingView }))))
  .add(
    HttpApiEndpoint.patch("setBookingStatus")`/bookings/${id}/status`
      .setPayload(Schema.Struct({ status: Text, reason: Text }))
      .addSuccess(Ok(Schema.Struct({ booking: AdminBookingView })))
  )
  .add(
    HttpApiEndpoint.get("services", "/services")
      .setUrlParams(
        Schema.Struct({
          search: Schema.optional(Schema.String),
          categoryId: Schema.optional(Schema.String),
          isAvailable: Schema.optional(Schema.String),
          ...ListParams
        })
      )
      .addSuccess(Ok(Schema.Struct({ services: Schema.Array(AdminServiceView), pagination: Pagination })))
  )
  .add(
    HttpApiEndpoint.patch("setServiceAvailability")`/services/${id}/status`
      .setPayload(Schema.Struct({ isAvailable: Schema.optional(Schema.Unknown) }))
      .addSuccess(Ok(Schema.Struct({ service: Schema.Struct({ id: Schema.String, isAvailable: Schema.Boolean }) })))
  )
  .add(
    HttpApiEndpoint.get("financialStats", "/financial/stats")
      .setUrlParams(Schema.Struct({ period: Schema.optional(Schema.String), currency: Schema.optional(Schema.String) }))
      .addSuccess(Ok(FinancialStatsView))
  )
  .add(HttpApiEndpoint.get("payments", "/payments").setUrlParams(Schema.Struct(ListParams)).addSuccess(Ok(Schema.Struct({ payments: Schema.Array(AdminPaymentView), pagination: Pagination }))))
  .add(HttpApiEndpoint.get("analytics", "/analytics").setUrlParams(Schema.Struct({ period: Schema.optional(Schema.String) })).addSuccess(Ok(AnalyticsView)))
  .middleware(Authentication)
  .prefix("/admin") {}
