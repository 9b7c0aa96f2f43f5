import { describe, expect, it } from "vitest"
import {
  dayKey,
  dayStart,
  durationChoices,
  endTimeOf,
  lastMonth,
  monthKey,
  monthStart,
  monthWindow,
  nextSlotWindows,
  slotDuration,
  slotsByDay,
  upcoming
} from "../../ui/booking/slots"
import { formatDateTimeIn, formatDayIn, formatTimeIn, zoneCity } from "../../ui/format"

// The booking form's slot rules (issue 12, item 3): zones are named, never the machine's, so these
// hold wherever the tests run.

const slot = (startTime: string) => ({ startTime })

describe("slot durations", () => {
  it("rounds the service's duration up to 15 minutes, within 15 minutes and 7 days", () => {
    expect(slotDuration(60)).toBe(60)
    expect(slotDuration(50)).toBe(60)
    expect(slotDuration(61)).toBe(75)
    expect(slotDuration(1)).toBe(15)
    expect(slotDuration(0)).toBe(15)
    expect(slotDuration(Number.NaN)).toBe(15)
    expect(slotDuration(8 * 24 * 60)).toBe(7 * 24 * 60)
  })

  it("offers every 15 minutes up to 12 h, and a longer service's own duration", () => {
    const choices = durationChoices(60)
    expect(choices[0]).toBe(15)
    expect(choices.at(-1)).toBe(720)
    expect(choices).toHaveLength(48)
    expect(choices.every((minutes) => minutes % 15 === 0)).toBe(true)
    expect(durationChoices(24 * 60).at(-1)).toBe(24 * 60)
  })

  it("ends a slot after its duration, across a change of clocks too (instants, not wall times)", () => {
    expect(endTimeOf("2026-03-29T00:30:00.000Z", 120)).toBe("2026-03-29T02:30:00.000Z")
  })
})

describe("days and months in a named zone", () => {
  it("puts an instant on its day in the viewer's zone", () => {
    // 23:30 UTC on 30 November: 1 December in Paris, still 30 November in Toronto.
    expect(dayKey("2026-11-30T23:30:00.000Z", "Europe/Paris")).toBe("2026-12-01")
    expect(dayKey("2026-11-30T23:30:00.000Z", "America/Toronto")).toBe("2026-11-30")
    expect(monthKey("2026-11-30T23:30:00.000Z", "Europe/Paris")).toBe("2026-12")
    expect(monthKey("2026-11-30T23:30:00.000Z", "America/Toronto")).toBe("2026-11")
  })

  it("starts a day and a month at the zone's midnight", () => {
    const utc = (date: Date) => new Date(date.getTime()).toISOString()
    expect(utc(dayStart("2026-12-01", "Europe/Paris"))).toBe("2026-11-30T23:00:00.000Z")
    expect(utc(dayStart("2026-07-01", "America/Toronto"))).toBe("2026-07-01T04:00:00.000Z")
    expect(utc(monthStart("2026-11-30T23:30:00.000Z", "Europe/Paris"))).toBe("2026-11-30T23:00:00.000Z")
    expect(utc(monthStart("2026-11-30T23:30:00.000Z", "America/Toronto"))).toBe("2026-11-01T04:00:00.000Z")
  })

  it("asks a month from its first midnight to the next month's, never before now, nothing for a month over", () => {
    const now = new Date("2026-11-25T20:00:00.000Z")
    // March 2027 in Paris: the clocks go forward on the 28th; the window is the zone's midnights.
    expect(monthWindow(new Date("2027-03-15T12:00:00.000Z"), "Europe/Paris", now)).toEqual({
      from: "2027-02-28T23:00:00.000Z",
      to: "2027-03-31T22:00:00.000Z"
    })
    expect(monthWindow(now, "Europe/Paris", now)).toEqual({ from: now.toISOString(), to: "2026-11-30T23:00:00.000Z" })
    expect(monthWindow(new Date("2026-10-10T12:00:00.000Z"), "Europe/Paris", now)).toBeUndefined()
    // Windows stay within the endpoint's 62 days.
    const window = monthWindow(new Date("2027-01-15T12:00:00.000Z"), "Asia/Tokyo", now)!
    expect(Date.parse(window.to) - Date.parse(window.from)).toBeLessThanOrEqual(62 * 24 * 3_600_000)
  })

  it("lets the picker reach the month a year ahead, no further", () => {
    expect(monthKey(lastMonth(new Date("2026-11-25T20:00:00.000Z"), "America/Toronto"), "America/Toronto")).toBe("2027-11")
  })

  it("looks for the next free slots in the next 7 days, then the rest of the next 60", () => {
    const now = new Date("2026-11-25T20:00:00.000Z")
    expect(nextSlotWindows(now)).toEqual([
      { from: "2026-11-25T20:00:00.000Z", to: "2026-12-02T20:00:00.000Z" },
      { from: "2026-12-02T20:00:00.000Z", to: "2027-01-24T20:00:00.000Z" }
    ])
  })
})

describe("slots by day", () => {
  it("groups slots by their day in the viewer's zone, each day in time order", () => {
    const slots = [slot("2026-12-01T15:00:00.000Z"), slot("2026-11-30T23:30:00.000Z"), slot("2026-12-01T08:00:00.000Z")]
    const paris = slotsByDay(slots, "Europe/Paris")
    expect([...paris.keys()]).toEqual(["2026-12-01"])
    expect(paris.get("2026-12-01")!.map((s) => s.startTime)).toEqual([
      "2026-11-30T23:30:00.000Z",
      "2026-12-01T08:00:00.000Z",
      "2026-12-01T15:00:00.000Z"
    ])
    const toronto = slotsByDay(slots, "America/Toronto")
    expect([...toronto.keys()]).toEqual(["2026-11-30", "2026-12-01"])
  })

  it("counts the repeated hour of a fall-back night once per instant, on its day", () => {
    // Toronto, 1 November 2026: 01:00-02:00 happens twice (EDT then EST).
    const slots = [slot("2026-11-01T05:30:00.000Z"), slot("2026-11-01T06:30:00.000Z")]
    const day = slotsByDay(slots, "America/Toronto").get("2026-11-01")!
    expect(day).toHaveLength(2)
    expect(day.map((s) => formatTimeIn("en-CA", s.startTime, "America/Toronto"))).toEqual(["1:30 a.m.", "1:30 a.m."])
  })

  it("keeps only the slots still ahead", () => {
    const now = new Date("2026-12-01T10:00:00.000Z")
    expect(upcoming([slot("2026-12-01T10:00:00.000Z"), slot("2026-12-01T10:15:00.000Z")], now)).toEqual([slot("2026-12-01T10:15:00.000Z")])
  })
})

describe("times in a named zone", () => {
  it("shows the same instant at each zone's time, in the reader's language", () => {
    const at = "2026-12-01T15:00:00.000Z"
    expect(formatTimeIn("fr", at, "Europe/Paris")).toBe("16:00")
    expect(formatTimeIn("fr", at, "America/Toronto")).toBe("10:00")
    expect(formatTimeIn("en", at, "America/Toronto")).toBe("10:00 AM")
    expect(formatDayIn("fr", at, "Asia/Tokyo")).toBe("mercredi 2 décembre 2026")
    expect(formatDayIn("en", at, "America/Toronto")).toBe("Tuesday, December 1, 2026")
    expect(formatDateTimeIn("fr", at, "Europe/Paris")).toBe("1 déc. 2026, 16:00")
  })

  it("names a zone by its place", () => {
    expect(zoneCity("en", "America/Toronto")).toBe("Toronto")
    expect(zoneCity("fr", "America/Montreal")).toBe("Montréal")
    expect(zoneCity("en", "UTC")).toBeNull()
  })
})
