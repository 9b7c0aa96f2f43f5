import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../app/api"
import { pagination } from "../../platform/paging"
import { localized, ok, requestLanguage } from "../../platform/http/envelope"
import { CurrentUser } from "../../platform/http/authentication"
import { contentDisposition } from "../../platform/uploads"
import { PaymentGatewayUnavailable } from "../payments"
import {
  toAdminBookingPaymentView,
  toAdminBookingRowView,
  toAdminBookingView,
  toAdminServiceView,
  toAdminUserView,
  toAuditEntryView,
  toAnalyticsView,
  toDashboardView,
  toFinancialStatsView
} from "./views"
import { Administration } from "./service"

/** The gateway failed or is unreachable: 502 in the one error envelope. */
const gateway = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (e): e is E & { readonly _tag: "PaymentGatewayError" } => (e as { _tag?: string })._tag === "PaymentGatewayError",
    () => Effect.fail(PaymentGatewayUnavailable)
  )

/** A CSV export as a download named after what it holds (`payments-EUR-2025-01-01-2025-01-31.csv`). */
const csvFile = (
  text: string,
  what: string,
  range: { readonly from?: string | undefined; readonly to?: string | undefined; readonly currency?: string | undefined }
) => {
  const name = [what, range.currency?.trim().toUpperCase(), range.from?.trim(), range.to?.trim()].filter((part) => part).join("-")
  return HttpServerResponse.text(text, {
    contentType: "text/csv; charset=utf-8",
    headers: { "content-disposition": contentDisposition("attachment", `${name}.csv`), "cache-control": "private, no-store" }
  })
}

export const AdministrationHttpLive = HttpApiBuilder.group(MarketplaceApi, "administration", (handlers) =>
  Effect.gen(function* () {
    const admin = yield* Administration
    return handlers
      .handle("dashboard", ({ urlParams }) =>
        Effect.flatMap(CurrentUser, (user) => admin.dashboard(user, { currency: urlParams.currency })).pipe(
          Effect.map((d) => ok(toDashboardView(d)))
        )
      )
      .handle("users", ({ urlParams }) =>
        Effect.gen(function* () {
          const found = yield* admin.users(yield* CurrentUser, urlParams)
          return ok({ users: found.rows.map(toAdminUserView), pagination: pagination(found.total, found.page, found.limit) })
        })
      )
      .handle("updateUser", ({ path, payload }) =>
        Effect.gen(function* () {
          const user = yield* admin.updateUser(yield* CurrentUser, path.id, payload)
          return ok({ user: toAdminUserView(user) }, yield* localized("admin.userUpdated"))
        })
      )
      .handle("createPaymentAccount", ({ path, payload }) =>
        gateway(
          Effect.gen(function* () {
            const { accountLink } = yield* admin.createPaymentAccount(yield* CurrentUser, path.id, payload.country)
            return ok({ accountLink }, yield* localized("admin.accountCreated"))
          })
        )
      )
      .handle("paymentAccountLink", ({ path }) =>
        gateway(Effect.flatMap(CurrentUser, (user) => admin.paymentAccountLink(user, path.id))).pipe(
          Effect.map(({ accountLink }) => ok({ accountLink }))
        )
      )
      .handle("paymentAccountStatus", ({ path }) =>
        Effect.flatMap(CurrentUser, (user) => admin.paymentAccountStatus(user, path.id)).pipe(Effect.map((s) => ok(s)))
      )
      .handle("paymentAccountDashboard", ({ path }) =>
        gateway(Effect.flatMap(CurrentUser, (user) => admin.paymentAccountDashboard(user, path.id))).pipe(
          Effect.map(({ dashboardUrl }) => ok({ dashboardUrl }))
        )
      )
      .handle("deletePaymentAccount", ({ path }) =>
        gateway(
          Effect.gen(function* () {
            const removed = yield* admin.deletePaymentAccount(yield* CurrentUser, path.id)
            return ok({ deleted: true as const, accountId: removed.accountId }, yield* localized("admin.accountDeleted"))
          })
        )
      )
      .handle("bookings", ({ urlParams }) =>
        Effect.gen(function* () {
          const found = yield* admin.bookings(yield* CurrentUser, urlParams)
          const language = yield* requestLanguage
          return ok({
            bookings: found.rows.map((b) => toAdminBookingRowView(b, language)),
            pagination: pagination(found.total, found.page, found.limit)
          })
        })
      )
      .handle("booking", ({ path }) =>
        Effect.gen(function* () {
          const detail = yield* admin.booking(yield* CurrentUser, path.id)
          return ok({ booking: toAdminBookingView(detail, yield* requestLanguage) })
        })
      )
      .handle("resolveDispute", ({ path, payload }) =>
        Effect.gen(function* () {
          const detail = yield* admin.resolveDispute(yield* CurrentUser, path.id, payload)
          return ok({ booking: toAdminBookingView(detail, yield* requestLanguage) }, yield* localized("admin.disputeResolved"))
        })
      )
      .handle("setBookingStatus", ({ path, payload }) =>
        Effect.gen(function* () {
          const detail = yield* admin.setBookingStatus(yield* CurrentUser, path.id, payload)
          return ok({ booking: toAdminBookingView(detail, yield* requestLanguage) }, yield* localized("admin.bookingUpdated"))
        })
      )
      .handle("refundBooking", ({ path, payload }) =>
        Effect.gen(function* () {
          const detail = yield* admin.refundBooking(yield* CurrentUser, path.id, payload)
          return ok({ booking: toAdminBookingView(detail, yield* requestLanguage) }, yield* localized("admin.bookingRefunded"))
        })
      )
      .handle("audit", ({ urlParams }) =>
        Effect.gen(function* () {
          const found = yield* admin.auditLog(yield* CurrentUser, urlParams)
          return ok({ entries: found.rows.map(toAuditEntryView), pagination: pagination(found.total, found.page, found.limit) })
        })
      )
      .handle("services", ({ urlParams }) =>
        Effect.gen(function* () {
          const found = yield* admin.services(yield* CurrentUser, urlParams)
          const language = yield* requestLanguage
          return ok({
            services: found.rows.map((s) => toAdminServiceView(s, language)),
            pagination: pagination(found.total, found.page, found.limit)
          })
        })
      )
      .handle("setServiceAvailability", ({ path, payload }) =>
        Effect.gen(function* () {
          const service = yield* admin.setServiceAvailability(yield* CurrentUser, path.id, payload.isAvailable)
          return ok(
            { service: { id: service.id, isAvailable: service.status === "ACTIVE" && service.archivedAt === null } },
            yield* localized("admin.serviceUpdated")
          )
        })
      )
      .handle("financialStats", ({ urlParams }) =>
        Effect.flatMap(CurrentUser, (user) => admin.financialStats(user, urlParams)).pipe(Effect.map((s) => ok(toFinancialStatsView(s))))
      )
      .handle("payments", ({ urlParams }) =>
        Effect.gen(function* () {
          const found = yield* admin.payments(yield* CurrentUser, urlParams)
          return ok({
            currency: found.currency,
            payments: found.rows.map(toAdminBookingPaymentView),
            pagination: pagination(found.total, found.page, found.limit)
          })
        })
      )
      .handleRaw("exportBookings", ({ urlParams }) =>
        Effect.flatMap(CurrentUser, (user) => admin.exportBookings(user, urlParams)).pipe(
          Effect.map((text) => csvFile(text, "bookings", urlParams))
        )
      )
      .handleRaw("exportPayments", ({ urlParams }) =>
        Effect.flatMap(CurrentUser, (user) => admin.exportPayments(user, urlParams)).pipe(
          Effect.map((text) => csvFile(text, "payments", urlParams))
        )
      )
      .handle("analytics", ({ urlParams }) =>
        Effect.flatMap(CurrentUser, (user) => admin.analytics(user, urlParams)).pipe(Effect.map((a) => ok(toAnalyticsView(a))))
      )
  })
)
