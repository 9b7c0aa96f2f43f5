import { describe, expect, it } from "vitest"
import { login } from "../support/accounts"
import { httpClient } from "../support/http"
import { advance, type BookingState, BookingStates, bookingIn, providerWithPayouts, serviceOf } from "../support/scenarios"
import { httpWorld } from "../support/world"

// The scenario builders (test/support/scenarios.ts) build each state for real: read back through the
// API as its client sees it.

const { server, api } = httpWorld()

const expected: Record<BookingState, { status: string; paymentStatus: string }> = {
  pending: { status: "PENDING", paymentStatus: "UNPAID" },
  paid: { status: "PENDING", paymentStatus: "AUTHORIZED" },
  confirmed: { status: "CONFIRMED", paymentStatus: "AUTHORIZED" },
  rendered: { status: "SERVICE_RENDERED", paymentStatus: "AUTHORIZED" },
  disputed: { status: "DISPUTED", paymentStatus: "AUTHORIZED" },
  completed: { status: "COMPLETED", paymentStatus: "CAPTURED" },
  refunded: { status: "COMPLETED", paymentStatus: "REFUNDED" }
}

describe("bookingIn", () => {
  for (const state of BookingStates)
    it(`builds a booking ${state}, as the API reads it`, async () => {
      const built = await bookingIn(server, state)
      const reply = await api.get(`/api/bookings/${built.bookingId}`, { token: built.client.token })
      expect(reply.status, reply.text).toBe(200)
      const booking = reply.body.data.bookingData ?? reply.body.data.booking
      expect({ status: booking.status, paymentStatus: booking.paymentStatus }).toEqual(expected[state])
      expect(booking.serviceId ?? booking.service?.id).toBe(built.serviceId)
    })
})

describe("bookingIn's options and advance", () => {
  const HOUR = 3_600_000
  const read = async (id: string, token: string) => (await api.get(`/api/bookings/${id}`, { token })).body.data.booking

  it("books the exact start asked for; one provider's bookings moved into the past one after another do not overlap", async () => {
    const provider = await providerWithPayouts(server)
    const serviceId = await serviceOf(server, provider, { price: 50 })
    const start = new Date(Date.now() + 3 * 24 * HOUR + 30 * 60_000)
    start.setUTCSeconds(0, 0)
    const exact = await bookingIn(server, "paid", { provider, serviceId, start, hours: 1.5 })
    expect(await read(exact.bookingId, exact.client.token)).toMatchObject({
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 1.5 * HOUR).toISOString(),
      totalMinor: 7500
    })
    const first = await bookingIn(server, "rendered", { provider, serviceId, startsInHours: 30 })
    const second = await bookingIn(server, "disputed", { provider, serviceId, startsInHours: 31 })
    expect(second.end.getTime()).toBeLessThanOrEqual(first.start.getTime())
    expect(first.end.getTime()).toBeLessThan(Date.now())
    expect(await read(second.bookingId, second.client.token)).toMatchObject({ status: "DISPUTED", startTime: second.start.toISOString() })
  })

  it("refunds part with the reason given, by the administrator's own use case (its audit entry)", async () => {
    const built = await bookingIn(server, "refunded", { refundMinor: 1500, refundReason: "Arrivé en retard" })
    expect(await read(built.bookingId, built.client.token)).toMatchObject({ paymentStatus: "PARTIALLY_REFUNDED" })
    const api = httpClient(server)
    const admin = await login(api, "admin@marketplace.local", "Admin1234!")
    const audit = await api.get(`/api/admin/audit?subjectType=BOOKING&subjectId=${built.bookingId}`, { token: admin.token })
    expect(audit.body.data.entries).toEqual([
      expect.objectContaining({
        action: "BOOKING_REFUNDED",
        actorId: admin.id,
        after: expect.objectContaining({ amountMinor: 1500, reason: "Arrivé en retard" })
      })
    ])
  })

  it("advance carries a booking made elsewhere on to a later state", async () => {
    const pending = await bookingIn(server, "pending")
    const confirmed = await advance(server, pending, "confirmed")
    expect(confirmed.bookingId).toBe(pending.bookingId)
    expect(await read(pending.bookingId, pending.client.token)).toMatchObject({ status: "CONFIRMED", paymentStatus: "AUTHORIZED" })
  })
})
