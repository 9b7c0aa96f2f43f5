// The UI's zone-aware rules (ui/booking/rules.ts): typed times are read in the viewer's zone
// (the account's, which need not be the browser's), and the provider calendar is laid out in the
// provider's zone by carrying it on its dates (@date-fns/tz's TZDate), whatever zone the process runs in.
import { describe, expect, it } from "vitest"
import {
  addDays,
  daysOf,
  eventsOnDay,
  hhmm,
  inZone,
  layoutDay,
  sameDay,
  sameDayIn,
  shiftDate,
  startOfDay,
  viewRange
} from "../../ui/booking/rules"
import { formatDateRangeIn, formatDateTimeIn, formatTimeIn } from "../../ui/format"

const plain = (text: string) => text.replace(/[\u2009\u202f\u00a0]/g, " ")
/** The instant of a date as UTC ISO (a TZDate's own toISOString writes its zone's offset). */
const utc = (date: Date) => new Date(date.getTime()).toISOString()

describe("the provider calendar in the provider's zone", () => {
  const toronto = (iso: string) => inZone(iso, "America/Toronto")

  it("a day is the zone's day, from its midnight", () => {
    // 03:00 UTC on 29 November is still 28 November in Toronto.
    const day = startOfDay(toronto("2026-11-29T03:00:00Z"))
    expect(utc(day)).toBe("2026-11-28T05:00:00.000Z")
    expect(day.getDate()).toBe(28)
    expect(utc(addDays(day, 1))).toBe("2026-11-29T05:00:00.000Z")
    // The day of the fall-back change lasts 25 hours: the next midnight is still a midnight.
    const change = startOfDay(toronto("2026-11-01T12:00:00Z"))
    expect(utc(change)).toBe("2026-11-01T04:00:00.000Z")
    expect(utc(addDays(change, 1))).toBe("2026-11-02T05:00:00.000Z")
    expect(utc(sameDayIn(change, "Asia/Tokyo"))).toBe("2026-10-31T15:00:00.000Z")
  })

  it("weeks, months and the fetched range are the zone's", () => {
    const date = startOfDay(toronto("2026-11-18T12:00:00Z"))
    const week = daysOf("week", date, 1)
    expect(week.map((d) => d.getDate())).toEqual([16, 17, 18, 19, 20, 21, 22])
    expect(utc(week[0]!)).toBe("2026-11-16T05:00:00.000Z")
    const month = daysOf("month", date, 1)
    expect(month[0]!.getDate()).toBe(26)
    expect(month.length % 7).toBe(0)
    const range = viewRange("month", date, 1)
    expect(utc(range.start)).toBe("2026-10-26T04:00:00.000Z")
    expect(utc(shiftDate("month", date, 1))).toBe("2026-12-18T05:00:00.000Z")
  })

  it("places a booking at the provider's hour, not the browser's", () => {
    // 14:00 UTC is 09:00 in Toronto (and 15:00 in Paris).
    const event = { startTime: "2026-11-18T14:00:00Z", endTime: "2026-11-18T15:00:00Z" }
    const day = startOfDay(toronto("2026-11-18T12:00:00Z"))
    expect(eventsOnDay([event], day)).toHaveLength(1)
    expect(hhmm(toronto(event.startTime))).toBe("09:00")
    const [placed] = layoutDay([event], day)
    // The window runs 06:00–22:00 (16 hours): 09:00 is 3/16 down it, one hour is 1/16.
    expect(placed!.top).toBeCloseTo((3 / 16) * 100, 6)
    expect(placed!.height).toBeCloseTo((1 / 16) * 100, 6)
    expect(sameDay(day, toronto("2026-11-19T04:59:00Z"))).toBe(true)
    expect(sameDay(day, toronto("2026-11-19T05:00:00Z"))).toBe(false)
  })
})

describe("ui/format's zone-aware variants", () => {
  it("write an instant in the zone given", () => {
    expect(plain(formatTimeIn("en", "2026-11-18T14:00:00Z", "America/Toronto"))).toBe("9:00 AM")
    expect(plain(formatTimeIn("fr", "2026-11-18T14:00:00Z", "Europe/Paris"))).toBe("15:00")
    expect(plain(formatDateTimeIn("fr", "2026-11-18T23:30:00Z", "Asia/Tokyo", "long"))).toBe("19 novembre 2026 à 08:30")
    expect(plain(formatDateRangeIn("en", "2026-11-18T14:00:00Z", "2026-11-18T15:00:00Z", "America/Toronto"))).toBe(
      "Wednesday, November 18, 2026, 9:00 – 10:00 AM"
    )
  })
})
