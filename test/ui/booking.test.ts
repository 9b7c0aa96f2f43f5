import { describe, expect, it } from "vitest"
import {
  billingDetailsOf,
  billingFieldOf,
  bookingFieldOf,
  bookingRequestOf,
  bookingTotal,
  checkBilling,
  checkBookingForm,
  checkReview,
  daysOf,
  defaultBillingCountry,
  eventsOnDay,
  hhmm,
  hourSlots,
  isOpen,
  layoutDay,
  otherParty,
  shiftDate,
  shortName,
  toMinor,
  viewRange,
  type BillingValues
} from "../../ui/booking/rules"

// Dates are built with local constructors: the rules work in the viewer's time zone.
const at = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi)
const iso = (date: Date) => date.toISOString()
const event = (id: string, start: Date, end: Date) => ({ id, startTime: iso(start), endTime: iso(end) })

describe("booking total (spec section 5: price × hours, 2 decimals)", () => {
  it("multiplies the hourly price by the hours and rounds to cents", () => {
    expect(bookingTotal(35, 120)).toBe(70)
    expect(bookingTotal(35.5, 90)).toBe(53.25)
    expect(bookingTotal(10, 20)).toBe(3.33)
    expect(bookingTotal(19.99, 45)).toBe(14.99) // 1499.25 cents
    expect(bookingTotal(0.1, 60 * 3)).toBe(0.3)
  })

  it("is zero for a duration of zero or less", () => {
    expect(bookingTotal(35, 0)).toBe(0)
    expect(bookingTotal(35, -30)).toBe(0)
  })

  it("follows a zero-decimal currency", () => {
    expect(bookingTotal(1000, 90, 0)).toBe(1500)
    expect(bookingTotal(1001, 20, 0)).toBe(334)
  })

  it("gives the amount in cents", () => {
    expect(toMinor(53.25)).toBe(5325)
    expect(toMinor(0.29)).toBe(29)
    expect(toMinor(1500, 0)).toBe(1500)
  })
})

describe("booking form checks (spec section 5, issue 12: a free slot picked for a duration)", () => {
  const now = at(2030, 6, 1, 8, 0)
  const valid = { startTime: "2030-06-02T07:00:00.000Z", duration: 150, address: "12 rue de la Paix, Paris", notes: "" }

  it("accepts a complete form and takes its duration", () => {
    const check = checkBookingForm(valid, now)
    expect(check.problems).toEqual({})
    expect(check.minutes).toBe(150)
  })

  it("requires a chosen time and an address; notes are optional", () => {
    const check = checkBookingForm({ startTime: "", duration: 60, address: "  ", notes: "" }, now)
    expect(check.problems).toEqual({ startTime: "chooseTime", address: "required" })
  })

  it("refuses a time already past, an unreadable one and an implausible address", () => {
    expect(checkBookingForm({ ...valid, startTime: iso(at(2030, 5, 31, 9)) }, now).problems.startTime).toBe("startInPast")
    expect(checkBookingForm({ ...valid, startTime: iso(now) }, now).problems.startTime).toBe("startInPast")
    expect(checkBookingForm({ ...valid, startTime: "tomorrow" }, now).problems.startTime).toBe("chooseTime")
    expect(checkBookingForm({ ...valid, address: "..." }, now).problems.address).toBe("invalidAddress")
    expect(checkBookingForm({ ...valid, address: "x".repeat(301) }, now).problems.address).toBe("tooLong")
    expect(checkBookingForm({ ...valid, notes: "n".repeat(1001) }, now).problems.notes).toBe("tooLong")
  })

  it("sends the slot's start, its end after the duration, the start's UTC day and trimmed text", () => {
    const request = bookingRequestOf("svc-1", { ...valid, address: "  12 rue de la Paix, Paris ", notes: " code 42 " })
    expect(request).toEqual({
      serviceId: "svc-1",
      startTime: "2030-06-02T07:00:00.000Z",
      endTime: "2030-06-02T09:30:00.000Z",
      address: "12 rue de la Paix, Paris",
      notes: "code 42",
      date: "2030-06-02"
    })
    // A start late in the UTC day: the day is the UTC one, as the server reads it.
    expect(bookingRequestOf("svc-1", { ...valid, startTime: "2030-06-02T23:30:00.000Z", duration: 60 })).toMatchObject({
      endTime: "2030-06-03T00:30:00.000Z",
      date: "2030-06-02"
    })
  })

  it("maps the server's field names to the form's", () => {
    expect(bookingFieldOf("startTime")).toBe("startTime")
    expect(bookingFieldOf("date")).toBe("startTime")
    // The end follows from the chosen slot and duration: its problems show at the time chooser.
    expect(bookingFieldOf("body.endTime")).toBe("startTime")
    expect(bookingFieldOf("address")).toBe("address")
    expect(bookingFieldOf("serviceId")).toBeUndefined()
  })
})

describe("billing details (spec section 5, checkout step)", () => {
  const complete: BillingValues = {
    name: "Lucas Bernard",
    email: "lucas@example.com",
    line1: "1 rue X",
    city: "Lyon",
    postalCode: "69001",
    country: "FR"
  }

  it("accepts complete details", () => {
    expect(checkBilling(complete)).toEqual({})
  })

  it("requires every field, non-blank", () => {
    const blank: BillingValues = { name: " ", email: "", line1: "", city: "\t", postalCode: "", country: "" }
    expect(checkBilling(blank)).toEqual({
      name: "required",
      email: "required",
      line1: "required",
      city: "required",
      postalCode: "required",
      country: "required"
    })
  })

  it("checks the email's shape", () => {
    expect(checkBilling({ ...complete, email: "lucas@" })).toEqual({ email: "email" })
  })

  it("builds the payload's billingDetails, trimmed, with an upper-case country", () => {
    expect(billingDetailsOf({ ...complete, name: " Lucas Bernard ", country: "fr" })).toEqual({
      name: "Lucas Bernard",
      email: "lucas@example.com",
      address: { line1: "1 rue X", city: "Lyon", postal_code: "69001", country: "FR" }
    })
  })

  it("maps the server's field names to the form's", () => {
    expect(billingFieldOf("billingDetails.address.postal_code")).toBe("postalCode")
    expect(billingFieldOf("billingDetails.name")).toBe("name")
    expect(billingFieldOf("billingDetails.address.country")).toBe("country")
    expect(billingFieldOf("amountCents")).toBeUndefined()
  })

  it("defaults the country from the browser locale's region, else US", () => {
    expect(defaultBillingCountry(["fr-CA", "fr"])).toBe("CA")
    expect(defaultBillingCountry(["fr", "en-GB"])).toBe("GB")
    expect(defaultBillingCountry(["zh-Hant-TW"])).toBe("TW")
    expect(defaultBillingCountry(["fr_BE"])).toBe("BE")
    expect(defaultBillingCountry(["fr", "en"])).toBe("US")
    expect(defaultBillingCountry([])).toBe("US")
  })
})

describe("completion review (spec section 5)", () => {
  it("takes a whole rating from 1 to 5 and a non-blank comment", () => {
    expect(checkReview(5, "Parfait")).toEqual({})
    expect(checkReview(1, "Bof")).toEqual({})
    expect(checkReview(0, "x")).toEqual({ rating: "range" })
    expect(checkReview(6, "x")).toEqual({ rating: "range" })
    expect(checkReview(4.5, "x")).toEqual({ rating: "range" })
    expect(checkReview(3, "   ")).toEqual({ comment: "required" })
    expect(checkReview(3, "c".repeat(2001))).toEqual({ comment: "tooLong" })
  })

  it("shows reviewers by first name and last initial", () => {
    expect(shortName("Lucas", "bernard")).toBe("Lucas B.")
    expect(shortName("Lucas", "")).toBe("Lucas")
  })
})

describe("booking parties and statuses", () => {
  const client = { id: "c", firstName: "Lucas", lastName: "Bernard" }
  const provider = { id: "p", firstName: "Marie", lastName: "Dubois" }
  it("contacts the other side", () => {
    expect(otherParty({ role: "client", client, provider })).toBe(provider)
    expect(otherParty({ role: "provider", client, provider })).toBe(client)
  })
  it("counts pending, confirmed, in-progress and rendered bookings as under way", () => {
    expect(["PENDING", "CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED"].every((s) => isOpen(s as never))).toBe(true)
    expect(["COMPLETED", "VALIDATED", "REJECTED", "CANCELLED"].some((s) => isOpen(s as never))).toBe(false)
  })
})

describe("calendar views", () => {
  it("shows one day, a week from its first day, or whole weeks covering the month", () => {
    const wednesday = at(2025, 6, 11, 15)
    expect(daysOf("day", wednesday, 1)).toEqual([at(2025, 6, 11)])
    const mondayWeek = daysOf("week", wednesday, 1)
    expect(mondayWeek[0]).toEqual(at(2025, 6, 9))
    expect(mondayWeek).toHaveLength(7)
    expect(daysOf("week", wednesday, 0)[0]).toEqual(at(2025, 6, 8))
    // June 2025 starts on a Sunday: with Monday first, the grid starts on 26 May and ends on 6 July.
    const month = daysOf("month", wednesday, 1)
    expect(month[0]).toEqual(at(2025, 5, 26))
    expect(month[month.length - 1]).toEqual(at(2025, 7, 6))
    expect(month.length % 7).toBe(0)
  })

  it("asks the server for the instants the view covers, end exclusive", () => {
    expect(viewRange("day", at(2025, 6, 11, 15), 1)).toEqual({ start: at(2025, 6, 11), end: at(2025, 6, 12) })
    expect(viewRange("week", at(2025, 6, 11), 1)).toEqual({ start: at(2025, 6, 9), end: at(2025, 6, 16) })
    expect(viewRange("month", at(2025, 6, 11), 1)).toEqual({ start: at(2025, 5, 26), end: at(2025, 7, 7) })
  })

  it("moves by a day, a week or a month, keeping the day within the month", () => {
    expect(shiftDate("day", at(2025, 12, 31), 1)).toEqual(at(2026, 1, 1))
    expect(shiftDate("week", at(2025, 6, 11), -1)).toEqual(at(2025, 6, 4))
    expect(shiftDate("month", at(2025, 1, 31), 1)).toEqual(at(2025, 2, 28))
    expect(shiftDate("month", at(2025, 3, 15), -1)).toEqual(at(2025, 2, 15))
  })

  it("labels the hours 06:00 to 21:00 in 24-hour time", () => {
    expect(hourSlots()).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21])
    expect(hhmm(at(2025, 6, 11, 9, 5))).toBe("09:05")
    expect(hhmm(at(2025, 6, 11, 21, 30))).toBe("21:30")
  })

  it("finds the events touching a day, in start order, including ones spanning midnight", () => {
    const day = at(2025, 6, 11)
    const events = [
      event("late", at(2025, 6, 11, 14), at(2025, 6, 11, 15)),
      event("overnight", at(2025, 6, 10, 22), at(2025, 6, 11, 2)),
      event("other", at(2025, 6, 12, 9), at(2025, 6, 12, 10)),
      event("ends-at-midnight", at(2025, 6, 10, 20), at(2025, 6, 11, 0))
    ]
    expect(eventsOnDay(events, day).map((e) => e.id)).toEqual(["overnight", "late"])
  })
})

describe("calendar day layout (06:00 to 22:00)", () => {
  const day = at(2025, 6, 11)
  const total = 16 * 60

  it("places an event by its start and length in the window", () => {
    const [placed] = layoutDay([event("a", at(2025, 6, 11, 10), at(2025, 6, 11, 12))], day)
    expect(placed!.top).toBeCloseTo((240 / total) * 100)
    expect(placed!.height).toBeCloseTo((120 / total) * 100)
    expect(placed).toMatchObject({ column: 0, columns: 1, clipped: false })
  })

  it("puts overlapping events side by side and lets the next free column be reused", () => {
    const placed = layoutDay(
      [
        event("a", at(2025, 6, 11, 9), at(2025, 6, 11, 11)),
        event("b", at(2025, 6, 11, 10), at(2025, 6, 11, 12)),
        event("c", at(2025, 6, 11, 11), at(2025, 6, 11, 13)),
        event("d", at(2025, 6, 11, 15), at(2025, 6, 11, 16))
      ],
      day
    )
    const byId = Object.fromEntries(placed.map((p) => [p.event.id, p]))
    expect(byId.a).toMatchObject({ column: 0, columns: 2 })
    expect(byId.b).toMatchObject({ column: 1, columns: 2 })
    expect(byId.c).toMatchObject({ column: 0, columns: 2 }) // a has ended at 11:00
    expect(byId.d).toMatchObject({ column: 0, columns: 1 }) // a new cluster
  })

  it("keeps every event visible: outside the hours it is pinned to the edge and flagged", () => {
    const placed = layoutDay(
      [event("early", at(2025, 6, 11, 4), at(2025, 6, 11, 7)), event("night", at(2025, 6, 11, 22, 30), at(2025, 6, 11, 23, 30))],
      day
    )
    const byId = Object.fromEntries(placed.map((p) => [p.event.id, p]))
    expect(byId.early).toMatchObject({ top: 0, clipped: true })
    expect(byId.early!.height).toBeCloseTo((60 / total) * 100)
    expect(byId.night!.clipped).toBe(true)
    expect(byId.night!.top + byId.night!.height).toBeCloseTo(100)
    expect(byId.night!.height).toBeGreaterThan(0)
  })

  it("gives a very short event a minimum height", () => {
    const [placed] = layoutDay([event("short", at(2025, 6, 11, 12), at(2025, 6, 11, 12, 5))], day)
    expect(placed!.height).toBeCloseTo((30 / total) * 100)
  })
})
