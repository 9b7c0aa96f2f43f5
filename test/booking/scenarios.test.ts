import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpClient } from "../support/http"
import { type BookingState, BookingStates, bookingIn } from "../support/scenarios"
import { startTestServer, type TestServer } from "../support/server"

// The scenario builders (test/support/scenarios.ts) build each state for real: read back through the
// API as its client sees it.

let server: TestServer
beforeAll(async () => void (server = await startTestServer()))
afterAll(() => server?.stop())

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
      const reply = await httpClient(server).get(`/api/bookings/${built.bookingId}`, { token: built.client.token })
      expect(reply.status, reply.text).toBe(200)
      const booking = reply.body.data.bookingData ?? reply.body.data.booking
      expect({ status: booking.status, paymentStatus: booking.paymentStatus }).toEqual(expected[state])
      expect(booking.serviceId ?? booking.service?.id).toBe(built.serviceId)
    })
})
