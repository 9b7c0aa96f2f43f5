// The time-zone toolkit (src/platform/zoned-time.ts, re-exported by time-zones.ts): instants written in
// a zone and zones named in French and English, across daylight-saving changes (Europe/Paris,
// America/Toronto) and in a zone without any (Asia/Tokyo); wall-clock times read back as instants.
import { describe, expect, it } from "vitest"
import {
  DEFAULT_TIME_ZONE,
  dayOf,
  formatInZone,
  formatRangeInZone,
  formatWithZone,
  instantOf,
  isTimeZone,
  sameTimeIn,
  wallTimeOf,
  zoneCity,
  zoneName,
  zoneOf
} from "../../src/platform/time-zones"

/** Intl writes narrow or thin spaces (before AM/PM, around a range dash): compared as plain spaces. */
const plain = (text: string) => text.replace(/[\u2009\u202f\u00a0]/g, " ")
const time = (locale: string, instant: string, zone: string) => plain(formatInZone(locale, instant, zone, { timeStyle: "short" }))
/** Each row's instant written by `time` in its language and zone. */
const expectTimes = (rows: ReadonlyArray<readonly [locale: string, instant: string, zone: string, written: string]>) => {
  for (const [locale, instant, zone, written] of rows) expect(time(locale, instant, zone), `${locale} ${instant} ${zone}`).toBe(written)
}

describe("formatInZone", () => {
  it("writes one instant in each zone, in both languages", () => {
    const instant = "2026-11-29T20:00:00Z"
    expectTimes([
      ["fr", instant, "Europe/Paris", "21:00"],
      ["fr", instant, "America/Toronto", "15:00"],
      ["fr", instant, "Asia/Tokyo", "05:00"],
      ["en", instant, "Europe/Paris", "9:00 PM"],
      ["en", instant, "America/Toronto", "3:00 PM"],
      ["en", instant, "Asia/Tokyo", "5:00 AM"]
    ])
    expect(plain(formatInZone("fr", instant, "Asia/Tokyo", { dateStyle: "long" }))).toBe("30 novembre 2026")
  })

  it("follows Paris across its 2026 changes (29 March, 25 October)", () => {
    expectTimes([
      // 00:30Z is 01:30 CET before the spring change, 01:30Z is 03:30 CEST after it (02:xx never happens).
      ["fr", "2026-03-29T00:30:00Z", "Europe/Paris", "01:30"],
      ["fr", "2026-03-29T01:30:00Z", "Europe/Paris", "03:30"],
      // At fall-back 02:30 happens twice: 00:30Z (CEST) and 01:30Z (CET).
      ["fr", "2026-10-25T00:30:00Z", "Europe/Paris", "02:30"],
      ["fr", "2026-10-25T01:30:00Z", "Europe/Paris", "02:30"],
      ["en", "2026-07-01T12:00:00Z", "Europe/Paris", "2:00 PM"],
      ["en", "2026-12-01T12:00:00Z", "Europe/Paris", "1:00 PM"]
    ])
  })

  it("follows Toronto across its 2026 changes (8 March, 1 November)", () => {
    expectTimes([
      ["en", "2026-03-08T06:30:00Z", "America/Toronto", "1:30 AM"],
      ["en", "2026-03-08T07:30:00Z", "America/Toronto", "3:30 AM"],
      ["en", "2026-11-01T05:30:00Z", "America/Toronto", "1:30 AM"],
      ["en", "2026-11-01T06:30:00Z", "America/Toronto", "1:30 AM"],
      ["fr", "2026-07-01T13:00:00Z", "America/Toronto", "09:00"],
      ["fr", "2026-12-01T13:00:00Z", "America/Toronto", "08:00"]
    ])
  })

  it("Tokyo keeps one offset all year", () => {
    expectTimes([
      ["fr", "2026-07-01T03:00:00Z", "Asia/Tokyo", "12:00"],
      ["fr", "2026-12-01T03:00:00Z", "Asia/Tokyo", "12:00"]
    ])
  })

  it("an unknown zone falls back to the default zone instead of throwing", () => {
    expect(time("fr", "2026-07-01T12:00:00Z", "Mars/Olympus")).toBe(time("fr", "2026-07-01T12:00:00Z", DEFAULT_TIME_ZONE))
  })

  it("writes ranges in the zone", () => {
    expect(
      plain(formatRangeInZone("fr", "2026-11-29T14:00:00Z", "2026-11-29T15:30:00Z", "Europe/Paris", { hour: "2-digit", minute: "2-digit" }))
    ).toBe("15:00 – 16:30")
  })
})

describe("zone names", () => {
  it("names a zone by its city, in each language", () => {
    expect(zoneName("fr", "Europe/Paris")).toBe("heure de Paris")
    expect(zoneName("en", "Europe/Paris")).toBe("Paris time")
    expect(zoneName("fr", "America/Toronto")).toBe("heure de Toronto")
    expect(zoneName("en", "America/Toronto")).toBe("Toronto time")
    expect(zoneName("fr", "Asia/Tokyo")).toBe("heure de Tokyo")
    expect(zoneName("en", "Asia/Tokyo")).toBe("Tokyo time")
    expect(zoneName("fr-CA", "America/Montreal")).toBe("heure de Montréal")
    expect(zoneName("en-CA", "America/Montreal")).toBe("Montreal time")
    expect(zoneName("fr", "Europe/Amsterdam")).toBe("heure d’Amsterdam")
    expect(zoneName("en", "America/Argentina/Buenos_Aires")).toBe("Buenos Aires time")
    expect(zoneName("fr", "America/Mexico_City")).toBe("heure de Mexico")
  })

  it("names a zone without a place by its offset", () => {
    expect(zoneName("fr", "UTC")).toBe("heure UTC")
    expect(zoneName("en", "UTC")).toBe("UTC time")
    expect(zoneName("en", "Etc/GMT+5")).toBe("GMT-5 time")
    expect(zoneCity("en", "Etc/GMT+5")).toBeNull()
  })

  it("writes an instant followed by its zone's name, as mails do", () => {
    const instant = "2026-11-29T20:00:00Z"
    expect(plain(formatWithZone("fr", instant, "America/Montreal"))).toBe("29 novembre 2026 à 15:00, heure de Montréal")
    expect(plain(formatWithZone("en", instant, "America/Toronto"))).toBe("November 29, 2026 at 3:00 PM, Toronto time")
    expect(plain(formatWithZone("fr", instant, "Europe/Paris"))).toBe("29 novembre 2026 à 21:00, heure de Paris")
    expect(plain(formatWithZone("en", instant, "Asia/Tokyo", { timeStyle: "short" }))).toBe("5:00 AM, Tokyo time")
  })
})

describe("zones and wall-clock times", () => {
  it("knows IANA names and nothing else", () => {
    expect(isTimeZone("America/Toronto")).toBe(true)
    expect(isTimeZone("UTC")).toBe(true)
    expect(isTimeZone("Mars/Olympus")).toBe(false)
    expect(isTimeZone("+02:00")).toBe(false)
    expect(isTimeZone("")).toBe(false)
    expect(isTimeZone(42)).toBe(false)
    expect(zoneOf(null)).toBe(DEFAULT_TIME_ZONE)
    expect(zoneOf("Nowhere/Land")).toBe(DEFAULT_TIME_ZONE)
    expect(zoneOf("Asia/Tokyo")).toBe("Asia/Tokyo")
  })

  it("tells whether two zones write an instant the same", () => {
    expect(sameTimeIn("Europe/Paris", "Europe/Berlin", "2026-07-01T12:00:00Z")).toBe(true)
    expect(sameTimeIn("Europe/Paris", "America/Toronto", "2026-07-01T12:00:00Z")).toBe(false)
    // London and Lisbon share their offsets; Paris and London differ by an hour all year.
    expect(sameTimeIn("Europe/London", "Europe/Lisbon", "2026-01-15T12:00:00Z")).toBe(true)
    expect(sameTimeIn("Europe/London", "Europe/Paris", "2026-01-15T12:00:00Z")).toBe(false)
  })

  it("reads wall-clock times in a zone, across the changes", () => {
    expect(instantOf("2026-11-29T15:00", "America/Toronto")?.toISOString()).toBe("2026-11-29T20:00:00.000Z")
    expect(instantOf("2026-07-01T15:00", "America/Toronto")?.toISOString()).toBe("2026-07-01T19:00:00.000Z")
    expect(instantOf("2026-07-01T15:00", "Europe/Paris")?.toISOString()).toBe("2026-07-01T13:00:00.000Z")
    expect(instantOf("2026-12-01T15:00", "Europe/Paris")?.toISOString()).toBe("2026-12-01T14:00:00.000Z")
    expect(instantOf("2026-07-01T15:00", "Asia/Tokyo")?.toISOString()).toBe("2026-07-01T06:00:00.000Z")
    // A time skipped by the spring change moves forward by the gap; a repeated one is its earlier occurrence
    // (Temporal's "compatible" reading), whatever the zone the process runs in.
    expect(instantOf("2026-03-29T02:30", "Europe/Paris")?.toISOString()).toBe("2026-03-29T01:30:00.000Z")
    expect(instantOf("2026-10-25T02:30", "Europe/Paris")?.toISOString()).toBe("2026-10-25T00:30:00.000Z")
    expect(instantOf("2026-11-01T01:30", "America/Toronto")?.toISOString()).toBe("2026-11-01T05:30:00.000Z")
    expect(instantOf("2026-11-01T02:30", "America/Toronto")?.toISOString()).toBe("2026-11-01T07:30:00.000Z")
    expect(instantOf("2026-03-08T02:30", "America/Toronto")?.toISOString()).toBe("2026-03-08T07:30:00.000Z")
    expect(instantOf("2026-11-29", "Asia/Tokyo")?.toISOString()).toBe("2026-11-28T15:00:00.000Z")
    expect(instantOf("2026-02-31T10:00", "Europe/Paris")).toBeNull()
    expect(instantOf("tomorrow", "Europe/Paris")).toBeNull()
  })

  it("writes an instant as a wall-clock time and day in a zone (the inverse of instantOf)", () => {
    expect(wallTimeOf("2026-11-29T20:00:00Z", "America/Toronto")).toBe("2026-11-29T15:00")
    expect(wallTimeOf("2026-11-29T20:00:00Z", "Asia/Tokyo")).toBe("2026-11-30T05:00")
    expect(dayOf("2026-11-29T23:30:00Z", "Europe/Paris")).toBe("2026-11-30")
    for (const zone of ["Europe/Paris", "America/Toronto", "Asia/Tokyo"]) {
      for (const iso of ["2026-03-29T01:30:00Z", "2026-11-01T06:30:00Z", "2026-07-14T10:15:00Z"]) {
        const back = instantOf(wallTimeOf(iso, zone), zone)!
        expect(formatInZone("en", back, zone, { timeStyle: "short" })).toBe(formatInZone("en", iso, zone, { timeStyle: "short" }))
      }
    }
  })
})
