import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Bookings } from "../../src/modules/booking"
import { fr } from "../../src/platform/messages"
import { mailsTo } from "../support/http"
import { adjustableClock } from "../support/clock"
import { httpWorld } from "../support/world"
import { DAY, HOUR, MINUTE } from "../support/durations"

const time = adjustableClock()
const { server, api, provider, client, sql, requestBooking, bookedIn } = httpWorld({
  clock: time.clock,
  service: { title: "Peinture intérieure", description: "Murs et plafonds, finitions soignées.", price: 50, location: "Lyon" },
  booking: { address: "5 place Bellecour, Lyon" }
})

let slot = 0
/** A 2-hour booking `hoursAhead` of the clock, requested (unpaid) or carried on to `state`. */
const book = async (hoursAhead = 24 + ++slot * 3, state: "pending" | "paid" | "confirmed" = "pending") => {
  const start = new Date(time.now().getTime() + hoursAhead * HOUR)
  const built = await bookedIn(state, { start, hours: 2 })
  return { id: built.bookingId, startTime: built.start.toISOString(), endTime: built.end.toISOString() }
}
const get = async (id: string) => (await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking
const sweep = () => server.run(Effect.flatMap(Bookings, (bookings) => bookings.sweep))
const operations = (id: string) =>
  sql<{ kind: string }>("SELECT kind FROM payment_operations WHERE booking_id = $1 ORDER BY created_at", [id]).then((rows) =>
    rows.map((r) => r.kind)
  )

describe("booking timers (the sweep, with a clock moved by hand)", () => {
  it("expires an unpaid request after its hold and frees the slot", async () => {
    const booking = await book()
    time.advance(29 * MINUTE)
    await sweep()
    expect((await get(booking.id)).status).toBe("PENDING")
    time.advance(2 * MINUTE)
    expect(await sweep()).toBeGreaterThanOrEqual(1)
    expect(await get(booking.id)).toMatchObject({
      status: "CANCELLED",
      cancelledBy: "SYSTEM",
      cancellationReason: "EXPIRED",
      paymentStatus: "CANCELED"
    })
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.expired.subject"])).toBe(true)
    const again = await requestBooking(client.token, { startTime: booking.startTime, endTime: booking.endTime })
    expect(again.status, again.text).toBe(201)
  })

  it("moves a confirmed booking to IN_PROGRESS at its start, and cancels a request nobody confirmed in time", async () => {
    const confirmed = await book(2, "confirmed")
    const unconfirmed = await book(2.5 + ++slot, "paid")
    time.advance(2 * HOUR + MINUTE)
    await sweep()
    expect((await get(confirmed.id)).status).toBe("IN_PROGRESS")
    time.advance(2 * DAY)
    await sweep()
    expect(await get(unconfirmed.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "NOT_CONFIRMED_IN_TIME",
      paymentStatus: "CANCELED"
    })
    expect(await operations(unconfirmed.id)).toEqual(["AUTHORIZATION", "CANCELLATION"])
  })

  it("renews a hold before it lapses, then validates and captures 7 days after 'service rendered'", async () => {
    const booking = await book(2, "confirmed")
    // "Service rendered" once the 2-hour booking has started (an hour in).
    time.advance(3 * HOUR)
    expect((await api.post(`/api/bookings/${booking.id}/mark-rendered`, {}, { token: provider.token })).status).toBe(200)
    const firstIntent = (await get(booking.id)).paymentStatus
    expect(firstIntent).toBe("AUTHORIZED")
    // Six days on, the 7-day hold is within a day of lapsing: it is renewed off-session with the saved card.
    time.advance(6 * DAY - 2 * HOUR)
    await sweep()
    expect((await get(booking.id)).status).toBe("SERVICE_RENDERED")
    expect(await operations(booking.id)).toEqual(["AUTHORIZATION", "AUTHORIZATION"])
    // The client never answers: 7 days after the later of "rendered" and the booked end, the booking is
    // VALIDATED and the renewed hold captured (not a moment before).
    time.advance(DAY + 2 * HOUR)
    await sweep()
    expect((await get(booking.id)).status).toBe("SERVICE_RENDERED")
    time.advance(HOUR)
    await sweep()
    expect(await get(booking.id)).toMatchObject({ status: "VALIDATED", paymentStatus: "CAPTURED" })
    expect(await operations(booking.id)).toEqual(["AUTHORIZATION", "AUTHORIZATION", "CAPTURE"])
    expect((await mailsTo(server, provider.email)).some((m) => m.subject === fr["mail.booking.validated.subject"])).toBe(true)
  })

  it("applies each due timer once when several workers sweep at the same time", async () => {
    const expiredMails = async () =>
      (await mailsTo(server, client.email)).filter((m) => m.subject === fr["mail.booking.expired.subject"]).length
    const bookings = await Promise.all([book(), book(), book(), book(), book()])
    const mailsBefore = await expiredMails()
    time.advance(31 * MINUTE)
    const changed = await Promise.all([sweep(), sweep(), sweep(), sweep()])
    for (const booking of bookings) expect((await get(booking.id)).status).toBe("CANCELLED")
    // One expiry mail per booking, whatever the number of sweeps.
    expect((await expiredMails()) - mailsBefore).toBe(bookings.length)
    expect(changed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(bookings.length)
  })
})
