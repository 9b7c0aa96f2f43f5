import { Effect } from "effect"
import { type BookingDetail, Bookings, type CancellationPolicy, toBookingView } from "../../../src/modules/booking"
import type { Actor } from "../../../src/modules/identity"
import { now } from "../../../src/platform/clock"
import { CLI_OPERATOR_ID } from "../../../src/platform/audit/port"
import { pagination } from "../../../src/platform/paging"

/**
 * What the bookings:* and payments:* commands do, as Effects over the booking service (the commands
 * only parse flags and print), so tests run them against a test server's own runtime. The CLI acts
 * as an administrator that is nobody's client or provider.
 */
export const Operator: Actor = { id: CLI_OPERATOR_ID, role: "ADMIN", preferredLanguage: "en", isEmailVerified: true }

const summary = (b: BookingDetail, now: Date, policy: CancellationPolicy) => {
  const view = toBookingView(b, Operator, "en", now, policy)
  return {
    id: view.id,
    status: view.status,
    displayStatus: view.displayStatus,
    paymentStatus: view.paymentStatus,
    service: view.service.title,
    client: { id: b.client.id, name: `${b.client.firstName} ${b.client.lastName}`, email: b.client.email },
    provider: { id: b.provider.id, name: `${b.provider.firstName} ${b.provider.lastName}`, email: b.provider.email },
    startTime: view.startTime.toISOString(),
    endTime: view.endTime.toISOString(),
    total: view.formattedTotal,
    totalMinor: view.totalMinor,
    currency: view.currency,
    capturedMinor: b.capturedMinor,
    refundedMinor: b.refundedMinor
  }
}
export type BookingSummary = ReturnType<typeof summary>

export const listBookings = (options: {
  readonly status?: string | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
}) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const page = yield* bookings.adminList(Operator, options)
    const at = yield* now
    return {
      bookings: page.items.map((b) => summary(b, at, bookings.cancellationPolicy)),
      pagination: pagination(page.total, page.page, page.limit)
    }
  })

export const setBookingStatus = (id: string, status: string, reason: string | undefined) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const booking = yield* bookings.adminSetStatus(Operator, id, status, reason)
    return summary(booking, yield* now, bookings.cancellationPolicy)
  })

/** The back-office's refund use case (`Bookings.refund`, also behind `POST /api/admin/bookings/{id}/refund`). */
export const refundBooking = (id: string, amountMinor: number | undefined, reason: string) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const booking = yield* bookings.refund(Operator, id, { amountMinor, reason })
    return summary(booking, yield* now, bookings.cancellationPolicy)
  })

export const renderBooking = (b: BookingSummary) =>
  `${b.id}  ${b.displayStatus.padEnd(16)} ${b.paymentStatus.padEnd(18)} ${b.startTime}  ${b.total.padStart(12)}  ${b.service}  (${b.client.email} → ${b.provider.email})`

export const renderList = (list: Effect.Effect.Success<ReturnType<typeof listBookings>>) =>
  list.bookings.length === 0
    ? "No bookings."
    : [
        ...list.bookings.map(renderBooking),
        `page ${list.pagination.page} of ${Math.max(1, list.pagination.pages)} (${list.pagination.total} bookings)`
      ].join("\n")
