import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { MarketplaceApi } from "../../app/api"
import { now as currentTime } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import { ok, requestLanguage } from "../../platform/http/envelope"
import { pageOf, pagination } from "../../platform/paging"
import { CurrentUser } from "../../platform/http/authentication"
import { toBookingView, toCalendarEventView, toDisputeView, toEarningsPage, toReceiptView, toRescheduleView, toReviewView } from "./views"
import { csv } from "../../platform/csv"
import { translate } from "../../platform/messages"
import { contentDisposition, readMultipart, uploadDisposition } from "../../platform/uploads"
import { receiptPdf } from "./receipt-pdf"
import { BookingStatements, receiptDocument } from "./receipts"
import { EARNINGS_CSV_HEADER, earningsCsvRows, receiptNumber } from "./statements"
import { DisputeMessageTextFields, DisputeReportTextFields } from "./contract"
import { DisputeFileFields } from "./rules"
import type { BookingDetail } from "./ports"
import { Bookings, REVIEWS_PAGE_SIZE, type UserCommand } from "./service"
import { CalendarFeeds } from "./calendars"

/** A booking as the caller sees it, in the request's language. */
const viewOf = (booking: BookingDetail) =>
  Effect.gen(function* () {
    const user = yield* CurrentUser
    const language = yield* requestLanguage
    const now = yield* currentTime
    const { cancellationPolicy } = yield* Bookings
    return toBookingView(booking, user, language, now, cancellationPolicy)
  })

export const BookingsHttpLive = HttpApiBuilder.group(MarketplaceApi, "bookings", (handlers) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const act = (id: string, command: UserCommand) =>
      Effect.flatMap(CurrentUser, (user) => bookings.act(user, id, command)).pipe(
        Effect.flatMap(viewOf),
        Effect.map((booking) => ok({ booking }))
      )
    const answer = (id: string, proposalId: string, choice: "accept" | "decline") =>
      Effect.flatMap(CurrentUser, (user) => bookings.answerReschedule(user, id, proposalId, choice)).pipe(
        Effect.flatMap(viewOf),
        Effect.map((booking) => ok({ booking }))
      )
    return (
      handlers
        .handle("create", ({ payload }) =>
          Effect.gen(function* () {
            const created = yield* bookings.request(yield* CurrentUser, payload)
            return ok({ bookingData: yield* viewOf(created) })
          })
        )
        .handle("mine", ({ urlParams }) =>
          Effect.gen(function* () {
            const page = yield* bookings.mine(yield* CurrentUser, urlParams)
            const views = yield* Effect.forEach(page.items, viewOf)
            return ok({ bookings: views, results: page.total, pagination: pagination(page.total, page.page, page.limit) })
          })
        )
        .handle("activeForService", ({ path }) =>
          Effect.gen(function* () {
            const found = yield* bookings.activeForService(yield* CurrentUser, path.id)
            return ok({ booking: Option.isSome(found) ? yield* viewOf(found.value) : null })
          })
        )
        .handle("calendar", ({ urlParams }) =>
          Effect.map(
            Effect.flatMap(CurrentUser, (user) => bookings.calendar(user, urlParams.from, urlParams.to)),
            (items) => ok(items.map(toCalendarEventView))
          )
        )
        .handle("get", ({ path }) =>
          Effect.gen(function* () {
            const booking = yield* bookings.get(yield* CurrentUser, path.id)
            return ok({ booking: yield* viewOf(booking) })
          })
        )
        .handle("confirm", ({ path }) => act(path.id, { _tag: "Confirm" }))
        .handle("reject", ({ path, payload }) => act(path.id, { _tag: "Reject", reason: payload.reason }))
        .handle("markRendered", ({ path }) => act(path.id, { _tag: "MarkRendered" }))
        .handle("confirmCompletion", ({ path, payload }) =>
          act(path.id, { _tag: "ConfirmCompletion", rating: payload.rating, comment: payload.comment })
        )
        .handle("cancel", ({ path, urlParams }) =>
          act(path.id, { _tag: "Cancel", reason: urlParams.reason, acceptedFee: urlParams.acceptedFee })
        )
        .handle("rescheduleSlots", ({ path, urlParams }) =>
          Effect.flatMap(CurrentUser, (user) => bookings.rescheduleSlots(user, path.id, urlParams)).pipe(Effect.map(ok))
        )
        .handle("reschedule", ({ path, payload }) =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            const { proposal, booking } = yield* bookings.proposeReschedule(user, path.id, payload)
            const language = yield* requestLanguage
            const now = yield* currentTime
            return ok({ proposal: toRescheduleView(proposal, booking, user, language, now), booking: yield* viewOf(booking) })
          })
        )
        // The bodies are read by readMultipart (the declared MultipartStream payloads document them and are not run).
        .handle("reportProblem", ({ path }) =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            // The booking is checked before the body is read: a stranger's upload is not read at all.
            yield* bookings.get(user, path.id)
            const form = yield* readMultipart({ files: DisputeFileFields, fields: DisputeReportTextFields })
            const booking = yield* bookings.reportProblem(user, path.id, form.fields, form.files)
            return ok({ booking: yield* viewOf(booking) })
          })
        )
        .handle("dispute", ({ path }) =>
          Effect.gen(function* () {
            const { booking, thread } = yield* bookings.dispute(yield* CurrentUser, path.id)
            return ok({ dispute: toDisputeView(thread, booking, yield* requestLanguage) })
          })
        )
        .handle("addDisputeMessage", ({ path }) =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            yield* bookings.get(user, path.id)
            const form = yield* readMultipart({ files: DisputeFileFields, fields: DisputeMessageTextFields })
            yield* bookings.addDisputeMessage(user, path.id, form.fields, form.files)
            const { booking, thread } = yield* bookings.dispute(user, path.id)
            return ok({ dispute: toDisputeView(thread, booking, yield* requestLanguage) })
          })
        )
        .handleRaw("disputeFile", ({ path }) =>
          Effect.gen(function* () {
            const { file, bytes } = yield* bookings.disputeFile(yield* CurrentUser, path.id, path.fileId)
            return HttpServerResponse.uint8Array(bytes, {
              contentType: file.contentType,
              headers: { "content-disposition": uploadDisposition(file.contentType, file.fileName), "cache-control": "private, no-store" }
            })
          })
        )
        .handle("acceptReschedule", ({ path }) => answer(path.id, path.proposalId, "accept"))
        .handle("declineReschedule", ({ path }) => answer(path.id, path.proposalId, "decline"))
    )
  })
)

export const CheckoutHttpLive = HttpApiBuilder.group(MarketplaceApi, "checkout", (handlers) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    return handlers.handle("createSession", ({ payload }) =>
      Effect.map(
        Effect.flatMap(CurrentUser, (user) => bookings.checkout(user, payload)),
        (session) => ok(session)
      )
    )
  })
)

export const ReviewsHttpLive = HttpApiBuilder.group(MarketplaceApi, "reviews", (handlers) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    return handlers.handle("ofService", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const { page, limit } = pageOf(urlParams, REVIEWS_PAGE_SIZE)
        const result = yield* bookings.reviewsOf(path.id, page, limit)
        return ok({
          reviews: result.items.map(toReviewView),
          averageRating: result.average,
          pagination: pagination(result.total, page, limit)
        })
      })
    )
  })
)

export const CancellationPolicyHttpLive = HttpApiBuilder.group(MarketplaceApi, "cancellationPolicy", (handlers) =>
  Effect.map(Bookings, (bookings) => handlers.handle("get", () => Effect.succeed(ok(bookings.cancellationPolicy))))
)

export const CalendarFeedHttpLive = HttpApiBuilder.group(MarketplaceApi, "calendarFeed", (handlers) =>
  Effect.gen(function* () {
    const feeds = yield* CalendarFeeds
    return handlers
      .handle("mine", () => Effect.map(Effect.flatMap(CurrentUser, feeds.mine), ok))
      .handle("regenerate", () => Effect.map(Effect.flatMap(CurrentUser, feeds.regenerate), ok))
  })
)

/**
 * `GET /api/calendar/{token}.ics`: a provider's private feed, public (the token is the secret),
 * answered as text/calendar beside the JSON API; a token of no feed is the 404 envelope.
 */
export const calendarFeedRoute = Effect.gen(function* () {
  const feeds = yield* CalendarFeeds
  const params = yield* HttpRouter.params
  const file = params.file ?? ""
  const token = file.endsWith(".ics") ? file.slice(0, -".ics".length) : ""
  const body = yield* feeds.feed(token)
  return HttpServerResponse.text(body, {
    contentType: "text/calendar; charset=utf-8",
    headers: { "content-disposition": 'inline; filename="bookings.ics"', "cache-control": "no-store" }
  })
})

export const ReceiptsHttpLive = HttpApiBuilder.group(MarketplaceApi, "receipts", (handlers) =>
  Effect.gen(function* () {
    const statements = yield* BookingStatements
    const { siteName, supportEmail } = yield* AppConfig
    const issuer = { name: siteName, email: supportEmail }
    return handlers
      .handle("receipt", ({ path }) =>
        Effect.gen(function* () {
          const receipt = yield* statements.receipt(yield* CurrentUser, path.id)
          return ok({ receipt: toReceiptView(receipt, yield* requestLanguage, issuer) })
        })
      )
      .handle("payments", ({ path }) =>
        Effect.gen(function* () {
          return ok({ payments: yield* statements.payments(yield* CurrentUser, path.id) })
        })
      )
      .handleRaw("receiptPdf", ({ path }) =>
        Effect.gen(function* () {
          const receipt = yield* statements.receipt(yield* CurrentUser, path.id)
          const language = yield* requestLanguage
          const bytes = yield* receiptPdf(receiptDocument(language, receipt, issuer))
          return HttpServerResponse.uint8Array(bytes, {
            contentType: "application/pdf",
            headers: {
              "content-disposition": contentDisposition(
                "attachment",
                `${translate(language, "receipt.fileName")}-${receiptNumber(receipt.booking.id)}.pdf`
              ),
              "cache-control": "no-store"
            }
          })
        })
      )
  })
)

/** Earnings lines per page (`?page`, `?limit`, the platform's paging). */
export const EARNINGS_PAGE_SIZE = 20

export const EarningsHttpLive = HttpApiBuilder.group(MarketplaceApi, "earnings", (handlers) =>
  Effect.gen(function* () {
    const statements = yield* BookingStatements
    return handlers
      .handle("mine", ({ urlParams }) =>
        Effect.gen(function* () {
          const earnings = yield* statements.earnings(yield* CurrentUser)
          return ok(toEarningsPage(earnings, pageOf(urlParams, EARNINGS_PAGE_SIZE), yield* requestLanguage))
        })
      )
      .handleRaw("csv", () =>
        Effect.gen(function* () {
          const earnings = yield* statements.earnings(yield* CurrentUser)
          return HttpServerResponse.text(csv(EARNINGS_CSV_HEADER, earningsCsvRows(earnings.lines)), {
            contentType: "text/csv; charset=utf-8",
            headers: { "content-disposition": 'attachment; filename="earnings.csv"', "cache-control": "no-store" }
          })
        })
      )
  })
)
