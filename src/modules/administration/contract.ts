import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { BookingId, ServiceId, UserId } from "../../platform/ids"
import { Ok, PageParams, Pagination, Payload, PayloadLongText, PayloadText, PathId } from "../../platform/http/schemas"
// The contract files, not the indexes: their index loads their handlers, which load the app's HttpApi (a cycle).
import { Role } from "../identity/contract"
import { Authentication } from "../../platform/http/authentication"
import { ConnectStatusView } from "../payments/contract"
import { DisputeSummaryView, PaymentEventView, ResolveDisputePayload } from "../booking/contract"
import { AdminPaymentStatuses, AuditActions, AuditSubjectTypes } from "./rules"

/** The `:id` of a user, a booking, a service: a malformed one answers their 404, as an unknown one (the modules' own errors). */
const UserIdParam = PathId(UserId, { code: "USER_NOT_FOUND", key: "admin.userNotFound" })
const BookingIdParam = PathId(BookingId, { code: "BOOKING_NOT_FOUND", key: "booking.notFound" })
const ServiceIdParam = PathId(ServiceId, { code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })

// The module's HTTP contract: schemas, endpoints, group. Pure (no server code): the UI imports its
// types. The views are built in views.ts.

// ---- Views -----------------------------------------------------------------------------------

const Person = Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String, email: Schema.String })
const Status = Schema.Literal(...AdminPaymentStatuses)

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
  /** The account's IANA time zone; null until known. */
  timeZone: Schema.NullOr(Schema.String),
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
  /**
   * Why a finished booking, or a late cancellation's fee, is not paid (NOT_SECURED, AUTHORIZATION_FAILED,
   * HOLD_RELEASED): flagged for an admin.
   */
  paymentIssue: Schema.NullOr(Schema.String),
  currency: Schema.String,
  createdAt: Schema.Date,
  service: Schema.Struct({ id: Schema.String, title: Schema.String, category: Schema.Struct({ name: Schema.String }) }),
  client: Person,
  provider: Person
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
  /** The provider's and the client's IANA zones (the detail screen names both when they differ from the admin's). */
  providerTimeZone: Schema.String,
  clientTimeZone: Schema.String,
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
  /** Why the finished booking is not paid (flagged); null when nothing is wrong. */
  paymentIssue: Schema.NullOr(Schema.String),
  /** The problem the client reported (issue 13): the detail screen shows its thread and the decision form. */
  dispute: Schema.NullOr(DisputeSummaryView),
  service: Schema.Struct({
    id: Schema.String,
    title: Schema.String,
    hourlyPriceMinor: Schema.Number,
    category: Schema.Struct({ name: Schema.String })
  }),
  client: Schema.Struct({ ...Person.fields, phoneNumber: Schema.String }),
  provider: Person,
  /** The payment timeline (booking/payment-timeline.ts): one event per operation, as the parties read it. */
  payments: Schema.Array(PaymentEventView),
  /** The refunds made (payment_operations), oldest first, each with the admin's reason. */
  refunds: Schema.Array(
    Schema.Struct({ amountMinor: Schema.Number, currency: Schema.String, reason: Schema.NullOr(Schema.String), createdAt: Schema.Date })
  ),
  /** The statuses the admin's "set status" may reach now (the booking's transition function for this admin): the menu offers only these. */
  allowedStatuses: Schema.Array(Schema.String),
  /** What is left to refund of the captured money, in minor units (0: nothing to refund). */
  refundableMinor: Schema.Number,
  reviews: Schema.Array(
    Schema.Struct({
      rating: Schema.Number,
      comment: Schema.NullOr(Schema.String),
      createdAt: Schema.Date,
      client: Schema.Struct({ firstName: Schema.String, lastName: Schema.String })
    })
  )
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
/** A booking's payment on the finance page: one row per booking, from all its operations (README, "Figures"). */
export const AdminBookingPaymentView = Schema.Struct({
  /** The booking's latest operation. */
  id: Schema.String,
  bookingId: Schema.String,
  status: Status,
  /** Captured, or else the last authorised amount. */
  amountMinor: Schema.Number,
  capturedMinor: Schema.Number,
  /** Refunded of the captured amount (0: none). */
  refundedMinor: Schema.Number,
  /** The platform's 5%: capture fees less refund fees. */
  commissionMinor: Schema.Number,
  /** Authorised and held now (0: none). */
  heldMinor: Schema.Number,
  currency: Schema.String,
  paymentMethod: Schema.NullOr(Schema.String),
  /** When the latest operation was recorded. */
  createdAt: Schema.Date,
  service: Schema.Struct({ id: Schema.String, title: Schema.String }),
  client: Person,
  provider: Person
})
/** One entry of the audit log: who (the actor's account, null for the CLI's operator), when, what, before and after. */
export const AuditEntryView = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.Date,
  action: Schema.Literal(...AuditActions),
  actorId: Schema.String,
  actor: Schema.NullOr(Schema.Struct({ firstName: Schema.String, lastName: Schema.String, email: Schema.String })),
  subjectType: Schema.Literal(...AuditSubjectTypes),
  subjectId: Schema.String,
  before: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  after: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
const Count = Schema.Number
export const DashboardView = Schema.Struct({
  users: Schema.Struct({ total: Count }),
  services: Schema.Struct({ total: Count, available: Count, unavailable: Count }),
  bookings: Schema.Struct({
    total: Count,
    pending: Count,
    confirmed: Count,
    completed: Count,
    validated: Count,
    ongoing: Count,
    cancelled: Count,
    rejected: Count,
    validationRate: Schema.Number
  }),
  /** Minor units of `currency`: see the README, "Figures". */
  revenue: Schema.Struct({
    monthly: Count,
    monthlyCommissions: Count,
    pending: Count,
    pendingCount: Count,
    validated: Count,
    currency: Schema.String
  }),
  applications: Schema.Struct({ pending: Count }),
  /** Disputes awaiting a decision, oldest first (each links to its booking). */
  disputes: Schema.Array(
    Schema.Struct({
      bookingId: Schema.String,
      reason: DisputeSummaryView.fields.reason,
      openedAt: Schema.Date,
      serviceTitle: Schema.String,
      clientName: Schema.String,
      providerName: Schema.String,
      totalMinor: Count,
      currency: Schema.String
    })
  ),
  userCurrency: Schema.String,
  currencies: Schema.Array(Schema.String)
})
export const FinancialStatsView = Schema.Struct({
  period: Schema.String,
  currency: Schema.String,
  currencies: Schema.Array(Schema.String),
  from: Schema.Date,
  to: Schema.Date,
  grossRevenue: Count,
  refundedAmount: Count,
  /** Gross less refunds. */
  keptRevenue: Count,
  totalCommissions: Count,
  /** Kept less commissions: the providers' share. */
  netRevenue: Count,
  /** Commissions / kept × 100. */
  commissionMargin: Schema.Number,
  /** Held on cards now (whatever the period). */
  heldAmount: Count,
  payments: Schema.Struct({ completed: Count, pending: Count, failed: Count }),
  revenueByStatus: Schema.Array(Schema.Struct({ status: Status, count: Count, amountMinor: Count })),
  /** Revenue per UTC day (week, month) or per UTC month (year), every bucket present, oldest first; `start` is YYYY-MM-DD. */
  series: Schema.Struct({
    unit: Schema.Literal("day", "month"),
    points: Schema.Array(Schema.Struct({ start: Schema.String, grossMinor: Count, refundedMinor: Count, commissionMinor: Count }))
  })
})
const Daily = Schema.Array(Schema.Struct({ date: Schema.String, count: Count }))
export const AnalyticsView = Schema.Struct({
  period: Schema.Number,
  from: Schema.Date,
  topUsers: Schema.Array(
    Schema.Struct({
      ...Person.fields,
      role: Role,
      counts: Schema.Struct({
        services: Count,
        bookingsAsClient: Count,
        bookingsAsProvider: Count,
        reviewsAsProvider: Count,
        reviewsAsClient: Count
      })
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
  /** New accounts and bookings per UTC day from `from` to today, days without any as 0. */
  growth: Schema.Struct({ users: Daily, bookings: Daily }),
  /** Bookings created in the period per status (the booking's own status codes), most first. */
  bookingsByStatus: Schema.Array(Schema.Struct({ status: Schema.String, count: Count }))
})
// ---- Contract --------------------------------------------------------------------------------

const Text = Schema.optional(PayloadText)
const LongText = Schema.optional(PayloadLongText)
/** A CSV export (RFC 4180), downloaded as a file. */
const Csv = HttpApiSchema.Text({ contentType: "text/csv" })
const ExportParams = Schema.Struct({
  from: Schema.optional(Schema.String),
  to: Schema.optional(Schema.String),
  currency: Schema.optional(Schema.String)
})

/** The back-office (spec admin-and-onboarding section 7): every endpoint is ADMIN only. */
export class AdministrationApi extends HttpApiGroup.make("administration")
  .add(
    HttpApiEndpoint.get("dashboard", "/dashboard")
      .setUrlParams(
        Schema.Struct({
          currency: Schema.optional(Schema.String),
          lat: Schema.optional(Schema.String),
          lng: Schema.optional(Schema.String)
        })
      )
      .addSuccess(Ok(DashboardView))
  )
  .add(
    HttpApiEndpoint.get("users", "/users")
      .setUrlParams(
        Schema.Struct({
          search: Schema.optional(Schema.String),
          role: Schema.optional(Schema.String),
          isActive: Schema.optional(Schema.String),
          ...PageParams
        })
      )
      .addSuccess(Ok(Schema.Struct({ users: Schema.Array(AdminUserView), pagination: Pagination })))
  )
  .add(
    HttpApiEndpoint.patch("updateUser")`/users/${UserIdParam}/status`
      // Loosely typed on purpose: wrong values are 422s with field details.
      .setPayload(Payload({ isActive: Schema.optional(Schema.Unknown), role: Schema.optional(Schema.Unknown) }))
      .addSuccess(Ok(Schema.Struct({ user: AdminUserView })))
  )
  .add(
    HttpApiEndpoint.post("createPaymentAccount")`/users/${UserIdParam}/stripe-connect`
      .setPayload(Payload({ country: Text }))
      .addSuccess(Ok(Schema.Struct({ accountLink: Schema.String })), { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("paymentAccountLink")`/users/${UserIdParam}/stripe-connect/link`.addSuccess(
      Ok(Schema.Struct({ accountLink: Schema.String }))
    )
  )
  .add(HttpApiEndpoint.get("paymentAccountStatus")`/users/${UserIdParam}/stripe-connect/status`.addSuccess(Ok(ConnectStatusView)))
  .add(
    HttpApiEndpoint.get("paymentAccountDashboard")`/users/${UserIdParam}/stripe-connect/dashboard`.addSuccess(
      Ok(Schema.Struct({ dashboardUrl: Schema.String }))
    )
  )
  .add(
    HttpApiEndpoint.del("deletePaymentAccount")`/users/${UserIdParam}/stripe-connect`.addSuccess(
      Ok(Schema.Struct({ deleted: Schema.Literal(true), accountId: Schema.String }))
    )
  )
  .add(
    HttpApiEndpoint.get("bookings", "/bookings")
      .setUrlParams(Schema.Struct({ search: Schema.optional(Schema.String), status: Schema.optional(Schema.String), ...PageParams }))
      .addSuccess(Ok(Schema.Struct({ bookings: Schema.Array(AdminBookingRowView), pagination: Pagination })))
  )
  .add(HttpApiEndpoint.get("booking")`/bookings/${BookingIdParam}`.addSuccess(Ok(Schema.Struct({ booking: AdminBookingView }))))
  .add(
    HttpApiEndpoint.patch("setBookingStatus")`/bookings/${BookingIdParam}/status`
      .setPayload(Payload({ status: Text, reason: LongText }))
      .addSuccess(Ok(Schema.Struct({ booking: AdminBookingView })))
  )
  /** Decides a booking's open dispute (issue 13): capture all, part, or release everything, with a note. */
  .add(
    HttpApiEndpoint.post("resolveDispute")`/bookings/${BookingIdParam}/dispute/resolve`
      .setPayload(ResolveDisputePayload)
      .addSuccess(Ok(Schema.Struct({ booking: AdminBookingView })))
  )
  .add(
    HttpApiEndpoint.post("refundBooking")`/bookings/${BookingIdParam}/refund`
      // amountMinor loosely typed on purpose: a wrong value is a 422 with the field's detail.
      .setPayload(Payload({ amountMinor: Schema.optional(Schema.Unknown), reason: LongText }))
      .addSuccess(Ok(Schema.Struct({ booking: AdminBookingView })))
  )
  .add(
    HttpApiEndpoint.get("audit", "/audit")
      .setUrlParams(
        Schema.Struct({
          action: Schema.optional(Schema.String),
          actor: Schema.optional(Schema.String),
          subjectType: Schema.optional(Schema.String),
          subjectId: Schema.optional(Schema.String),
          from: Schema.optional(Schema.String),
          to: Schema.optional(Schema.String),
          ...PageParams
        })
      )
      .addSuccess(Ok(Schema.Struct({ entries: Schema.Array(AuditEntryView), pagination: Pagination })))
  )
  .add(
    HttpApiEndpoint.get("services", "/services")
      .setUrlParams(
        Schema.Struct({
          search: Schema.optional(Schema.String),
          categoryId: Schema.optional(Schema.String),
          isAvailable: Schema.optional(Schema.String),
          ...PageParams
        })
      )
      .addSuccess(Ok(Schema.Struct({ services: Schema.Array(AdminServiceView), pagination: Pagination })))
  )
  .add(
    HttpApiEndpoint.patch("setServiceAvailability")`/services/${ServiceIdParam}/status`
      .setPayload(Payload({ isAvailable: Schema.optional(Schema.Unknown) }))
      .addSuccess(Ok(Schema.Struct({ service: Schema.Struct({ id: Schema.String, isAvailable: Schema.Boolean }) })))
  )
  .add(
    HttpApiEndpoint.get("financialStats", "/financial/stats")
      .setUrlParams(Schema.Struct({ period: Schema.optional(Schema.String), currency: Schema.optional(Schema.String) }))
      .addSuccess(Ok(FinancialStatsView))
  )
  .add(
    HttpApiEndpoint.get("payments", "/payments")
      .setUrlParams(Schema.Struct({ currency: Schema.optional(Schema.String), ...PageParams }))
      .addSuccess(Ok(Schema.Struct({ currency: Schema.String, payments: Schema.Array(AdminBookingPaymentView), pagination: Pagination })))
  )
  .add(HttpApiEndpoint.get("exportBookings", "/exports/bookings").setUrlParams(ExportParams).addSuccess(Csv))
  .add(HttpApiEndpoint.get("exportPayments", "/exports/payments").setUrlParams(ExportParams).addSuccess(Csv))
  .add(
    HttpApiEndpoint.get("analytics", "/analytics")
      .setUrlParams(Schema.Struct({ period: Schema.optional(Schema.String) }))
      .addSuccess(Ok(AnalyticsView))
  )
  .middleware(Authentication)
  .prefix("/admin") {}
