import { TZDate } from "@date-fns/tz"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { en, fr, translate } from "../../src/platform/messages"
import { httpWorld } from "../support/world"
import { DAY, HOUR, MINUTE } from "../support/durations"

/**
 * Availability over HTTP (issue 12): a provider's plan (GET public, PUT their own), a service's free
 * slots, and POST /api/bookings refusing a time outside availability (422 OUTSIDE_AVAILABILITY).
 */

const world = httpWorld({
  service: { title: "Cours de piano", description: "Leçons de piano à domicile, tous niveaux.", price: 50 },
  booking: { address: "45 avenue du Mont-Royal, Montréal" }
})
const { api, provider, client, sql, requestBooking } = world
beforeAll(async () => {
  // No plan yet (the test helpers open their providers at all times): the default plan applies.
  await sql("DELETE FROM availability_plans WHERE provider_id = $1", [provider.id])
})

const ZONE = "America/Toronto"

const put = (body: unknown, token = provider.token, language?: string) =>
  api.call("PUT", "/api/providers/me/availability", { json: body, token, ...(language ? { language } : {}) })
const slots = (query: Record<string, string>, id = world.serviceId) => api.get(`/api/services/${id}/slots?${new URLSearchParams(query)}`)
const book = (startTime: Date, minutes: number, language?: string) =>
  requestBooking(
    client.token,
    { startTime: startTime.toISOString(), endTime: new Date(startTime.getTime() + minutes * MINUTE).toISOString() },
    language
  )
/** The instant of a wall-clock time `days` local days from today in Toronto. */
const toronto = (days: number, hour: number, minute = 0) => {
  const today = new TZDate(Date.now(), ZONE)
  return new Date(new TZDate(today.getFullYear(), today.getMonth(), today.getDate() + days, hour, minute, ZONE).getTime())
}
const isoWeekday = (at: Date) => {
  const day = new TZDate(at.getTime(), ZONE).getDay()
  return day === 0 ? 7 : day
}

/** Weekdays 09:00–12:00 and 13:00–17:00 in the account's zone (Toronto once set), closed at weekends. */
const officeHours = {
  weekly: [1, 2, 3, 4, 5].map((weekday) => ({
    weekday,
    ranges: [
      { start: "09:00", end: "12:00" },
      { start: "13:00", end: "17:00" }
    ]
  })),
  exceptions: [],
  noticeMinutes: 120,
  bufferMinutes: 0
}

describe("GET /api/providers/{id}/availability", () => {
  it("answers the default plan of a provider who set none: 08:00–20:00 every day, 2 hours' notice", async () => {
    const reply = await api.get(`/api/providers/${provider.id}/availability`)
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data).toEqual({
      timeZone: "Europe/Paris",
      isDefault: true,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start: "08:00", end: "20:00" }] })),
      exceptions: [],
      noticeMinutes: 120,
      bufferMinutes: 0
    })
  })

  it("is 404 for an unknown or malformed id and for a user who is not a provider", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope", client.id]) {
      const reply = await api.get(`/api/providers/${id}/availability`)
      expect(reply.status, id).toBe(404)
      expect(reply.body.code).toBe("PROVIDER_NOT_FOUND")
    }
  })
})

describe("PUT /api/providers/me/availability", () => {
  it("is for signed-in providers only (401, 403)", async () => {
    expect((await api.call("PUT", "/api/providers/me/availability", { json: officeHours })).status).toBe(401)
    const refused = await put(officeHours, client.token)
    expect(refused.status).toBe(403)
  })

  it("refuses a wrong shape with 400 and bad values with 422 per field, in the user's language", async () => {
    expect((await put({ ...officeHours, colour: "blue" })).status).toBe(400)
    const bad = {
      timeZone: "Mars/Olympus",
      weekly: [
        {
          weekday: 1,
          ranges: [
            { start: "09:00", end: "12:00" },
            { start: "11:00", end: "13:00" }
          ]
        },
        { weekday: 2, ranges: [{ start: "18:00", end: "08:00" }] }
      ],
      exceptions: [{ kind: "closed", startTime: "2030-12-25T10:00:00Z", endTime: "2030-12-25T09:00:00Z" }],
      noticeMinutes: -1,
      bufferMinutes: 100000
    }
    const french = await put(bad)
    expect(french.status, french.text).toBe(422)
    expect(french.body.code).toBe("VALIDATION_ERROR")
    expect(Object.fromEntries(french.body.details.map((d: { field: string; message: string }) => [d.field, d.message]))).toEqual({
      timeZone: fr["validation.timeZone"],
      "weekly[0].ranges[1]": fr["availability.overlappingRanges"],
      "weekly[1].ranges[0].end": fr["availability.endBeforeStart"],
      "exceptions[0].endTime": fr["availability.endBeforeStart"],
      noticeMinutes: fr["availability.invalidNotice"].replace("{max}", "43200"),
      bufferMinutes: fr["availability.invalidBuffer"].replace("{max}", "720")
    })
    const english = await put(bad, provider.token, "en")
    expect(english.body.details.find((d: { field: string }) => d.field === "weekly[0].ranges[1]").message).toBe(
      en["availability.overlappingRanges"]
    )
  })

  it("has no zone but the account's: another one is refused in the user's language, the account's change moves the plan", async () => {
    const other = await put({ ...officeHours, timeZone: ZONE })
    expect(other.status, other.text).toBe(422)
    expect(other.body.details).toEqual([{ field: "timeZone", message: fr["validation.zoneOfAccount"] }])
    const english = await put({ ...officeHours, timeZone: ZONE }, provider.token, "en")
    expect(english.body.details).toEqual([{ field: "timeZone", message: en["validation.zoneOfAccount"] }])
    const moved = await api.patch("/api/users/me", { timeZone: ZONE }, { token: provider.token })
    expect(moved.status, moved.text).toBe(200)
    expect((await api.get(`/api/providers/${provider.id}/availability`)).body.data.timeZone).toBe(ZONE)
    // The account's own zone, sent back as the view has it, is welcome.
    expect((await put({ ...officeHours, timeZone: ZONE })).status).toBe(200)
  })

  it("stores the plan and exceptions, which GET then answers in the account's zone", async () => {
    const dayOff = { start: toronto(9, 0), end: toronto(10, 0) }
    const saved = await put({
      ...officeHours,
      exceptions: [
        { kind: "closed", startTime: dayOff.start.toISOString(), endTime: dayOff.end.toISOString(), note: "Congé" },
        { kind: "open", startTime: toronto(12, 18).toISOString(), endTime: toronto(12, 20).toISOString() }
      ]
    })
    expect(saved.status, saved.text).toBe(200)
    expect(saved.body.data.isDefault).toBe(false)
    const read = await api.get(`/api/providers/${provider.id}/availability`)
    expect(read.body.data).toEqual(saved.body.data)
    expect(read.body.data.timeZone).toBe(ZONE)
    expect(read.body.data.weekly[0]).toEqual({ weekday: 1, ranges: officeHours.weekly[0]!.ranges })
    expect(read.body.data.weekly[6]).toEqual({ weekday: 7, ranges: [] })
    expect(read.body.data.exceptions).toEqual([
      expect.objectContaining({ kind: "closed", startTime: dayOff.start.toISOString(), endTime: dayOff.end.toISOString(), note: "Congé" }),
      expect.objectContaining({ kind: "open", note: null })
    ])
  })
})

describe("GET /api/services/{id}/slots", () => {
  it("refuses a bad window or duration (422 per field) and an unknown or unpublished service (404)", async () => {
    const from = new Date(Date.now() + DAY)
    const tooLong = await slots({ from: from.toISOString(), to: new Date(from.getTime() + 63 * DAY).toISOString(), duration: "60" })
    expect(tooLong.status).toBe(422)
    expect(tooLong.body.details).toEqual([{ field: "to", message: fr["availability.windowTooLong"].replace("{days}", "62") }])
    const badDuration = await slots({ from: from.toISOString(), to: new Date(from.getTime() + DAY).toISOString(), duration: "50" })
    expect(badDuration.status).toBe(422)
    expect(badDuration.body.details.map((d: { field: string }) => d.field)).toEqual(["duration"])
    expect((await slots({ duration: "60" })).status).toBe(422)
    const window = { from: from.toISOString(), to: new Date(from.getTime() + DAY).toISOString(), duration: "60" }
    expect((await slots(window, "00000000-0000-4000-8000-000000000000")).status).toBe(404)
    expect((await slots(window, "nope")).status).toBe(404)
    const other = await api.post(
      "/api/services",
      {
        title: "Service retiré",
        description: "Un service que son prestataire a retiré.",
        price: 20,
        duration: 60,
        location: "Montréal",
        categoryId: 7
      },
      { token: provider.token }
    )
    await sql("UPDATE services SET archived_at = now() WHERE id = $1", [other.body.data.service.id])
    const archived = await slots(window, other.body.data.service.id)
    expect(archived.status).toBe(404)
    expect(archived.body.code).toBe("SERVICE_NOT_FOUND")
  })

  it("offers every quarter hour inside the plan, outside the day off and the bookings, after the notice", async () => {
    await put({
      ...officeHours,
      exceptions: [
        { kind: "closed", startTime: toronto(9, 0).toISOString(), endTime: toronto(10, 0).toISOString(), note: "Congé" },
        { kind: "open", startTime: toronto(12, 18).toISOString(), endTime: toronto(12, 20).toISOString() }
      ]
    })
    const from = toronto(1, 0)
    const to = toronto(15, 0)
    const reply = await slots({ from: from.toISOString(), to: to.toISOString(), duration: "90" })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data.timeZone).toBe(ZONE)
    expect(reply.body.data.duration).toBe(90)
    const offered: Array<{ startTime: string }> = reply.body.data.slots
    expect(offered.length).toBeGreaterThan(0)
    const evening = (slot: { startTime: string }) =>
      Date.parse(slot.startTime) >= toronto(12, 18).getTime() && Date.parse(slot.startTime) < toronto(12, 20).getTime()
    for (const slot of offered.filter((s) => !evening(s))) {
      const start = new TZDate(Date.parse(slot.startTime), ZONE)
      const minutes = start.getHours() * 60 + start.getMinutes()
      expect(Object.keys(slot)).toEqual(["startTime"])
      expect(minutes % 15).toBe(0)
      expect(isoWeekday(new Date(slot.startTime))).toBeLessThanOrEqual(5)
      // 09:00–12:00 cannot hold 90 minutes after 10:30; 13:00–17:00 after 15:30.
      expect((minutes >= 9 * 60 && minutes <= 10 * 60 + 30) || (minutes >= 13 * 60 && minutes <= 15 * 60 + 30)).toBe(true)
      // The closed day (9 days ahead) offers nothing.
      expect(Date.parse(slot.startTime) >= toronto(9, 0).getTime() && Date.parse(slot.startTime) < toronto(10, 0).getTime()).toBe(false)
    }
    // The extra open evening 12 days ahead (18:00–20:00), if that day is a working day or not.
    expect(offered.filter(evening).map((s) => s.startTime)).toEqual([
      toronto(12, 18).toISOString(),
      toronto(12, 18, 15).toISOString(),
      toronto(12, 18, 30).toISOString()
    ])
    await put(officeHours)
  })

  it("leaves out a booked time, widened by the buffer", async () => {
    const days = [2, 3, 4, 5, 6, 7, 8].find((d) => isoWeekday(toronto(d, 9)) <= 5)!
    const booked = await book(toronto(days, 13), 60)
    expect(booked.status, booked.text).toBe(201)
    await put({ ...officeHours, bufferMinutes: 30 })
    const reply = await slots({ from: toronto(days, 0).toISOString(), to: toronto(days + 1, 0).toISOString(), duration: "60" })
    const starts = reply.body.data.slots.map((s: { startTime: string }) => s.startTime)
    // 13:00–14:00 booked, 30 minutes' buffer: the afternoon starts at 14:30.
    expect(starts.filter((s: string) => Date.parse(s) >= toronto(days, 13).getTime())[0]).toBe(toronto(days, 14, 30).toISOString())
    expect(starts).toContain(toronto(days, 11).toISOString())
    // The same rule on POST: 14:00 is inside the plan but within the buffer.
    const tooClose = await book(toronto(days, 14), 60)
    expect(tooClose.status).toBe(422)
    expect(tooClose.body.code).toBe("OUTSIDE_AVAILABILITY")
    await put(officeHours)
  })
})

describe("POST /api/bookings and availability", () => {
  const workday = (from: number) => [0, 1, 2, 3, 4, 5, 6].map((d) => from + d).find((d) => isoWeekday(toronto(d, 9)) <= 5)!

  it("refuses a time outside the plan with 422 OUTSIDE_AVAILABILITY in the user's language", async () => {
    const day = workday(20)
    const evening = await book(toronto(day, 19), 60)
    expect(evening.status, evening.text).toBe(422)
    expect(evening.body.code).toBe("OUTSIDE_AVAILABILITY")
    expect(evening.body.message).toBe(fr["booking.outsideAvailability"])
    const english = await book(toronto(day, 11, 30), 60, "en") // runs over the lunch break
    expect(english.status).toBe(422)
    expect(english.body.message).toBe(en["booking.outsideAvailability"])
    const weekend = [20, 21, 22, 23, 24, 25, 26].find((d) => isoWeekday(toronto(d, 9)) >= 6)!
    expect((await book(toronto(weekend, 10), 60)).body.code).toBe("OUTSIDE_AVAILABILITY")
  })

  it("refuses a start within the notice, and accepts a time inside the plan", async () => {
    await put({ ...officeHours, weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start: "00:00", end: "24:00" }] })) })
    const soon = await book(new Date(Math.ceil((Date.now() + HOUR) / (15 * MINUTE)) * 15 * MINUTE), 60)
    expect(soon.status).toBe(422)
    expect(soon.body.code).toBe("OUTSIDE_AVAILABILITY")
    expect(soon.body.details).toEqual([{ field: "startTime", message: translate("fr", "availability.noticeTooShort", { minutes: "120" }) }])
    await put(officeHours)
    const ok = await book(toronto(workday(21), 9, 15), 120)
    expect(ok.status, ok.text).toBe(201)
    // An overlap stays the exclusion constraint's: 409, not 422.
    const overlap = await book(toronto(workday(21), 10), 60)
    expect(overlap.status).toBe(409)
  })

  it("accepts every slot it offers (property: random plans, windows and durations)", async () => {
    let round = 0
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          start: fc.integer({ min: 0, max: 60 }),
          length: fc.integer({ min: 4, max: 40 }),
          days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
          buffer: fc.constantFrom(0, 15, 30),
          duration: fc.constantFrom(15, 45, 60, 120),
          pick: fc.nat()
        }),
        async (draw) => {
          // Each round books in its own fortnight, 30 to 300 days ahead, so earlier rounds do not interfere.
          const base = 30 + 10 * ++round
          const start = draw.start * 15
          const end = Math.min(1440, start + draw.length * 15 + 60)
          const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`
          const set = await put({
            weekly: draw.days.map((weekday) => ({ weekday, ranges: [{ start: clock(start), end: clock(end) }] })),
            exceptions: [],
            noticeMinutes: 120,
            bufferMinutes: draw.buffer
          })
          expect(set.status, set.text).toBe(200)
          const reply = await slots({
            from: toronto(base, 0).toISOString(),
            to: toronto(base + 8, 0).toISOString(),
            duration: String(draw.duration)
          })
          expect(reply.status, reply.text).toBe(200)
          const offered: Array<{ startTime: string }> = reply.body.data.slots
          if (offered.length === 0) return
          const slot = offered[draw.pick % offered.length]!
          const booked = await book(new Date(slot.startTime), draw.duration)
          expect(booked.status, `${slot.startTime}: ${booked.text}`).toBe(201)
          // And the slots no longer offer it.
          const after = await slots({
            from: toronto(base, 0).toISOString(),
            to: toronto(base + 8, 0).toISOString(),
            duration: String(draw.duration)
          })
          expect(after.body.data.slots.map((s: { startTime: string }) => s.startTime)).not.toContain(slot.startTime)
        }
      ),
      { numRuns: 12 }
    )
    await put(officeHours)
  }, 120_000)
})
