import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { BookingReminders } from "../../src/modules/booking/calendars"
import { dueReminder } from "../../src/modules/booking/reminders"
import { fr } from "../../src/platform/messages"
import type { Session } from "../support/accounts"
import { mailsTo } from "../support/http"
import { adjustableClock } from "../support/clock"
import { startTestServer, type TestServer } from "../support/server"
import { httpWorld } from "../support/world"
import { DAY, HOUR, MINUTE } from "../support/durations"

describe("dueReminder (pure)", () => {
  const start = new Date("2027-03-12T14:00:00Z")
  const at = (msBefore: number) => new Date(start.getTime() - msBefore)
  it("nothing is due more than 24 hours before the start", () => {
    expect(dueReminder(start, at(24 * HOUR + 1))).toBeUndefined()
    expect(dueReminder(start, at(3 * DAY))).toBeUndefined()
  })
  it("the day-before reminder from 24 hours before until 2 hours before", () => {
    expect(dueReminder(start, at(24 * HOUR))).toBe("24h")
    expect(dueReminder(start, at(5 * HOUR))).toBe("24h")
    expect(dueReminder(start, at(2 * HOUR + 1))).toBe("24h")
  })
  it("the 2-hour reminder from 2 hours before until the start, instead of a late day-before one", () => {
    expect(dueReminder(start, at(2 * HOUR))).toBe("2h")
    expect(dueReminder(start, at(1))).toBe("2h")
  })
  it("nothing once the booking has started", () => {
    expect(dueReminder(start, start)).toBeUndefined()
    expect(dueReminder(start, at(-HOUR))).toBeUndefined()
  })
})

const time = adjustableClock()
const { server, api, provider, client, sql, bookedIn } = httpWorld({
  clock: time.clock,
  service: { title: "Cours de piano", description: "Solfège et répertoire, tous niveaux.", price: 40, location: "Lyon" }
})

// Each booking far from the others (the provider's slots never overlap).
let slot = 0
const confirmedBooking = async (hoursAhead: number) => {
  const start = new Date(Math.floor((time.now().getTime() + hoursAhead * HOUR) / MINUTE) * MINUTE + ++slot * 7 * DAY)
  return confirmedAt(start)
}
const confirmedAt = async (start: Date) => {
  const address = `${slot} rue de la République, Lyon`
  const { bookingId: id } = await bookedIn("confirmed", { start, address })
  return { id, start, address }
}
/** Moves the clock to `msBefore` the start. */
const moveTo = (start: Date, msBefore: number) => time.advance(start.getTime() - msBefore - time.now().getTime())
const sendDue = (on: TestServer = server) => on.run(Effect.flatMap(BookingReminders, (reminders) => reminders.sendDue))
/** The reminders of one booking (told apart by its address) mailed to `to`. */
const reminders = (to: string, kind: "24h" | "2h", address: string) =>
  mailsTo(server, to).then((mails) =>
    mails.filter((m) => m.subject === fr[`mail.booking.reminder${kind}.subject`] && m.text.includes(address))
  )
const logged = (bookingId: string) =>
  sql<{ kind: string }>("SELECT kind FROM booking_reminders WHERE booking_id = $1 ORDER BY sent_at, kind", [bookingId])
/** Quiet hours read in UTC: the account's zone, the one its quiet hours follow. */
const setPreferences = async (session: Session, body: Record<string, unknown>) => {
  expect((await api.patch("/api/users/me", { timeZone: "UTC" }, { token: session.token })).status).toBe(200)
  const reply = await api.call("PUT", "/api/notifications/preferences", { json: body, token: session.token })
  expect(reply.status, reply.text).toBe(200)
}
/** "HH:MM" in UTC of an instant. */
const clockOf = (date: Date) => date.toISOString().slice(11, 16)

describe("reminders before a confirmed booking (the sweep, with the database)", () => {
  it("the confirmation mail carries the booking as an .ics attachment, to both people", async () => {
    const { id, start } = await confirmedBooking(30)
    for (const to of [client.email, provider.email]) {
      const confirmation = (await mailsTo(server, to)).find((m) => m.subject === fr["mail.booking.confirmed.subject"])
      expect(confirmation?.attachments?.map((a) => a.filename)).toEqual(["booking.ics"])
      const ics = confirmation!.attachments![0]!
      expect(ics.contentType).toContain("text/calendar")
      expect(ics.content).toContain(`UID:booking-${id}@marketplace`)
      expect(ics.content).toContain(`DTSTART:${start.toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`)
      expect(ics.content).toContain("SUMMARY:Cours de piano")
      expect(ics.content).toContain("METHOD:PUBLISH")
    }
  })

  it("sends each reminder once to both people, even with concurrent ticks, for the start it was sent for", async () => {
    const { id, start, address } = await confirmedBooking(48)
    moveTo(start, 25 * HOUR)
    await sendDue()
    expect(await reminders(client.email, "24h", address)).toHaveLength(0)

    moveTo(start, 24 * HOUR - MINUTE)
    const counts = await Promise.all([sendDue(), sendDue(), sendDue()])
    expect(counts.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(1)
    const toClient = await reminders(client.email, "24h", address)
    expect(toClient).toHaveLength(1)
    expect(toClient[0]?.text).toContain("Cours de piano")
    expect(await reminders(provider.email, "24h", address)).toHaveLength(1)
    // Later ticks of the same window send nothing more.
    moveTo(start, 3 * HOUR)
    await sendDue()
    expect(await reminders(client.email, "24h", address)).toHaveLength(1)

    moveTo(start, 2 * HOUR - MINUTE)
    await Promise.all([sendDue(), sendDue()])
    expect(await reminders(client.email, "2h", address)).toHaveLength(1)
    expect(await reminders(provider.email, "2h", address)).toHaveLength(1)
    expect((await logged(id)).map((r) => r.kind)).toEqual(["24h", "2h"])
  })

  it("a booking moved later gets its reminders again for the new time; a cancelled one gets none", async () => {
    const moved = await confirmedBooking(30)
    const cancelled = await confirmedBooking(30)
    const cancelReply = await api.call("DELETE", `/api/bookings/${cancelled.id}`, { token: client.token })
    expect(cancelReply.status, cancelReply.text).toBe(200)
    moveTo(moved.start, 2 * HOUR - MINUTE)
    await sendDue()
    expect(await reminders(client.email, "2h", moved.address)).toHaveLength(1)

    // Moved three days later (as an accepted reschedule does): no reminder is logged for the new start.
    const newStart = new Date(moved.start.getTime() + 3 * DAY)
    await sql("UPDATE bookings SET start_time = $2, end_time = $3, version = version + 1 WHERE id = $1", [
      moved.id,
      newStart,
      new Date(newStart.getTime() + HOUR)
    ])
    await sendDue()
    expect(await reminders(client.email, "2h", moved.address)).toHaveLength(1)
    moveTo(newStart, 24 * HOUR - MINUTE)
    await sendDue()
    expect(await reminders(client.email, "24h", moved.address)).toHaveLength(1)
    moveTo(newStart, 2 * HOUR - MINUTE)
    await sendDue()
    expect(await reminders(client.email, "2h", moved.address)).toHaveLength(2)
    expect((await logged(moved.id)).map((r) => r.kind)).toEqual(["2h", "24h", "2h"])

    // The cancelled booking's start comes and goes without a reminder.
    moveTo(cancelled.start, 24 * HOUR - MINUTE)
    await sendDue()
    moveTo(cancelled.start, 2 * HOUR - MINUTE)
    await sendDue()
    expect(await logged(cancelled.id)).toEqual([])
    expect(await reminders(client.email, "2h", cancelled.address)).toHaveLength(0)
  })

  it("honours quiet hours: held back until they end, or not sent at all when they end after the start", async () => {
    const later = await confirmedBooking(30)
    // The client's quiet hours (set before the clock gets there) hold the day-before reminder for an
    // hour; the provider has none.
    const dayBefore = new Date(later.start.getTime() - 24 * HOUR + MINUTE)
    await setPreferences(client, {
      quietHoursEnabled: true,
      quietHoursStart: clockOf(new Date(dayBefore.getTime() - HOUR)),
      quietHoursEnd: clockOf(new Date(dayBefore.getTime() + HOUR))
    })
    moveTo(later.start, 24 * HOUR - MINUTE)
    await sendDue()
    expect(await reminders(client.email, "24h", later.address)).toHaveLength(0)
    expect(await reminders(provider.email, "24h", later.address)).toHaveLength(1)
    const held = await sql<{ n: number }>("SELECT count(*)::int AS n FROM mail_suppressions WHERE recipient = $1", [client.email])
    expect(held[0]?.n).toBe(0)

    // A 2-hour reminder inside quiet hours that end after the start: suppressed as expired, not delivered late.
    const twoBefore = new Date(later.start.getTime() - 2 * HOUR + MINUTE)
    await setPreferences(client, {
      quietHoursEnabled: true,
      quietHoursStart: clockOf(new Date(twoBefore.getTime() - HOUR)),
      quietHoursEnd: clockOf(new Date(twoBefore.getTime() + 3 * HOUR))
    })
    moveTo(later.start, 2 * HOUR - MINUTE)
    await sendDue()
    expect(await reminders(client.email, "2h", later.address)).toHaveLength(0)
    expect(await reminders(provider.email, "2h", later.address)).toHaveLength(1)
    const suppressed = await sql<{ kind: string; reason: string }>(
      "SELECT kind, reason FROM mail_suppressions WHERE recipient = $1 ORDER BY created_at",
      [client.email]
    )
    expect(suppressed).toEqual([{ kind: "booking-reminder", reason: "expired" }])
    expect((await logged(later.id)).map((r) => r.kind)).toEqual(["24h", "2h"])
    await setPreferences(client, { quietHoursEnabled: false })
  })

  it("with a second server on the same database, a due reminder still goes once", async () => {
    if (server.databaseUrl === undefined) return // PGlite serves one process
    const second = await startTestServer({}, { clock: time.clock, databaseUrl: server.databaseUrl })
    try {
      const { start, address } = await confirmedBooking(30)
      moveTo(start, 24 * HOUR - MINUTE)
      await Promise.all([sendDue(server), sendDue(second), sendDue(server), sendDue(second)])
      expect(await reminders(client.email, "24h", address)).toHaveLength(1)
      expect(await reminders(provider.email, "24h", address)).toHaveLength(1)
    } finally {
      await second.stop()
    }
  }, 60_000)
})
