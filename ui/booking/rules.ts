// Pure rules of the booking screens (spec client-and-provider sections 4, 5 and 9): the booking
// form, billing details, the completion review and the provider calendar's layout. Free of React,
// Lingui and browser globals so they are unit-tested. Dates are the viewer's zone's: the form's times
// are read in the zone given, the calendar's days carry theirs (inZone).

import {
  ADDRESS_MAX,
  type BillingProblem,
  billingProblems,
  COMMENT_MAX,
  NOTES_MAX,
  RATING_MAX,
  RATING_MIN
} from "../../src/modules/booking/rules"
import { TZDate } from "@date-fns/tz"
import type { BillingDetails, Booking, BookingRequest, BookingStatus } from "../api/contract"

// ---- Constants (spec section 9, architecture section 4) ----

/** Service detail and bookings refetch every 10 s while visible. */
export const REFRESH_MS = 10_000
export const BOOKINGS_PAGE_SIZE = 10
export const REVIEWS_PAGE_SIZE = 10
/** How long the card form waits for the payment provider's script before giving up. */
export const PAYMENT_PROVIDER_TIMEOUT_MS = 8_000
export const DEFAULT_RATING = 5
// The server's own limits (src/modules/booking/rules.ts imports nothing): the form checks them before sending.
export { ADDRESS_MAX, COMMENT_MAX, NOTES_MAX, RATING_MAX, RATING_MIN, REASON_MAX } from "../../src/modules/booking/rules"
/** The calendar's time slots: 06:00 to 22:00. */
export const DAY_START_HOUR = 6
export const DAY_END_HOUR = 22

const MINUTE = 60_000

// ---- Statuses ----

/** Statuses of a booking still under way: the service page shows its banner instead of the book button. */
export const OPEN_STATUSES: ReadonlyArray<BookingStatus> = ["PENDING", "CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED"]
export const isOpen = (status: BookingStatus) => OPEN_STATUSES.includes(status)

/** The other side of a booking, for the contact button. */
export const otherParty = (booking: Pick<Booking, "role" | "client" | "provider">) =>
  booking.role === "provider" ? booking.client : booking.provider

/** The status filter of the bookings list: value sent as `status`, "" for all. */
export const STATUS_FILTERS = [
  "",
  "PENDING",
  "PAID",
  "CONFIRMED",
  "IN_PROGRESS",
  "SERVICE_RENDERED",
  "DISPUTED",
  "RESOLVED",
  "COMPLETED",
  "VALIDATED",
  "CANCELLED,REJECTED"
] as const
export type StatusFilter = (typeof STATUS_FILTERS)[number]

// ---- Dates of the booking form ----

const pad = (n: number) => String(n).padStart(2, "0")

/** Whole minutes from start to end (negative when the end comes first). */
export const minutesBetween = (start: Date, end: Date) => Math.round((end.getTime() - start.getTime()) / MINUTE)

/**
 * Total = hourly price × hours, rounded to the currency's minor unit (2 decimals for most; the
 * server computes the same from the minor-unit price and stays the judge).
 */
export const bookingTotal = (hourlyPrice: number, minutes: number, fractionDigits = 2): number => {
  if (!(minutes > 0) || !Number.isFinite(hourlyPrice)) return 0
  const unit = 10 ** fractionDigits
  const priceMinor = Math.round(hourlyPrice * unit)
  return Math.round((priceMinor * minutes) / 60) / unit
}

/** Amount in the minor unit ("cents") = round(price × hours × 100) for a 2-decimal currency. */
export const toMinor = (amount: number, fractionDigits = 2) => Math.round(amount * 10 ** fractionDigits)

/**
 * The booking form: a free slot's start (an ISO instant, "" until one is chosen) for a duration in
 * minutes (a multiple of 15: the slots endpoint's), the address and notes.
 */
export interface BookingFormValues {
  startTime: string
  duration: number
  address: string
  notes: string
}
export type BookingField = "startTime" | "address" | "notes"
export type BookingProblem = "chooseTime" | "required" | "startInPast" | "invalidAddress" | "tooLong"

export interface BookingCheck {
  readonly problems: Partial<Record<BookingField, BookingProblem>>
  readonly minutes: number
}

/** A valid address has some letters or digits beyond a few characters (as the server checks). */
export const isPlausibleAddress = (text: string) => text.trim().length >= 5 && /[\p{L}\p{N}]{2,}/u.test(text)

/** The booking form: a free start time chosen (still ahead), an address; notes optional. */
export const checkBookingForm = (values: BookingFormValues, now: Date): BookingCheck => {
  const problems: Partial<Record<BookingField, BookingProblem>> = {}
  const start = Date.parse(values.startTime)
  if (values.startTime === "" || Number.isNaN(start)) problems.startTime = "chooseTime"
  else if (start <= now.getTime()) problems.startTime = "startInPast"
  const address = values.address.trim()
  if (address === "") problems.address = "required"
  else if (address.length > ADDRESS_MAX) problems.address = "tooLong"
  else if (!isPlausibleAddress(address)) problems.address = "invalidAddress"
  if (values.notes.trim().length > NOTES_MAX) problems.notes = "tooLong"
  return { problems, minutes: values.duration }
}

/** What POST /bookings receives: the slot's start and end (ISO instants), the start's day (UTC) and trimmed text. */
export const bookingRequestOf = (serviceId: string, values: BookingFormValues): BookingRequest => {
  const startTime = new Date(Date.parse(values.startTime)).toISOString()
  return {
    serviceId,
    startTime,
    endTime: new Date(Date.parse(values.startTime) + values.duration * MINUTE).toISOString(),
    address: values.address.trim(),
    notes: values.notes.trim(),
    date: startTime.slice(0, 10)
  }
}

/** Server field names of a 422 answer mapped to the form's fields. */
export const bookingFieldOf = (field: string): BookingField | undefined => {
  const last =
    field
      .split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? field
  return last === "startTime" || last === "date" || last === "endTime"
    ? "startTime"
    : last === "address"
      ? "address"
      : last === "notes"
        ? "notes"
        : undefined
}

// ---- Billing details (spec section 5, checkout step) ----

export interface BillingValues {
  name: string
  email: string
  line1: string
  city: string
  postalCode: string
  country: string
}
export type BillingField = keyof BillingValues
export type { BillingProblem } from "../../src/modules/booking/rules"

/** Every field non-blank, the email well formed: the server's own rule, keyed by the form's fields. */
export const checkBilling = (values: BillingValues): Partial<Record<BillingField, BillingProblem>> => {
  const problems: Partial<Record<BillingField, BillingProblem>> = {}
  for (const [path, problem] of Object.entries(billingProblems(billingDetailsOf(values)))) {
    const field = billingFieldOf(path)
    if (field !== undefined) problems[field] = problem
  }
  return problems
}

export const billingDetailsOf = (values: BillingValues): BillingDetails => ({
  name: values.name.trim(),
  email: values.email.trim(),
  address: {
    line1: values.line1.trim(),
    city: values.city.trim(),
    postal_code: values.postalCode.trim(),
    country: values.country.trim().toUpperCase()
  }
})

/** Server field names ("billingDetails.address.postal_code") mapped to the form's fields. */
export const billingFieldOf = (field: string): BillingField | undefined => {
  const last =
    field
      .split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? field
  const map: Record<string, BillingField> = {
    name: "name",
    email: "email",
    line1: "line1",
    address: "line1",
    city: "city",
    postal_code: "postalCode",
    postalCode: "postalCode",
    country: "country"
  }
  return map[last]
}

/** Countries offered at the billing step (the default is added when missing). */
export const BILLING_COUNTRIES = [
  "AT",
  "AU",
  "BE",
  "BR",
  "CA",
  "CH",
  "CI",
  "CM",
  "DE",
  "DK",
  "DZ",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "HT",
  "IE",
  "IT",
  "JP",
  "LU",
  "MA",
  "MX",
  "NL",
  "NO",
  "NZ",
  "PL",
  "PT",
  "SE",
  "SN",
  "TN",
  "US"
] as const

/** The billing country from the browser's languages ("fr-CA" → CA); US when none names a region. */
export const defaultBillingCountry = (languages: ReadonlyArray<string>): string => {
  for (const tag of languages) {
    const region = /^[a-z]{2,3}(?:-[A-Za-z]{4})?-([A-Za-z]{2})(?:-|$)/i.exec(tag.replace(/_/g, "-"))?.[1]
    if (region) return region.toUpperCase()
  }
  return "US"
}

// ---- Completion review (spec section 5) ----

export type ReviewProblem = "range" | "required" | "tooLong"

export const checkReview = (rating: number, comment: string): { rating?: ReviewProblem; comment?: ReviewProblem } => {
  const problems: { rating?: ReviewProblem; comment?: ReviewProblem } = {}
  if (!Number.isInteger(rating) || rating < RATING_MIN || rating > RATING_MAX) problems.rating = "range"
  const text = comment.trim()
  if (text === "") problems.comment = "required"
  else if (text.length > COMMENT_MAX) problems.comment = "tooLong"
  return problems
}

/** "Marie", "Dubois" → "Marie D." (reviews show the client's first name and last initial). */
export const shortName = (firstName: string, lastName: string) => {
  const initial = Array.from(lastName.trim())[0]
  return initial ? `${firstName.trim()} ${initial.toLocaleUpperCase()}.` : firstName.trim()
}

// ---- Provider calendar ----

export type CalendarView = "month" | "week" | "day"
export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6

/**
 * The calendar is laid out in a zone (the provider's own) by carrying it on its dates: a day built from a
 * TZDate (@date-fns/tz) is a TZDate of the same zone, whose fields (year, month, day, hours, weekday)
 * are that zone's; a plain Date stays the browser's. `inZone` makes an instant such a date.
 */
export const inZone = (instant: Date | string | number, zone: string): Date =>
  new TZDate(instant instanceof Date ? instant.getTime() : new Date(instant).getTime(), zone)

/** The same calendar day (its midnight) in another zone. */
export const sameDayIn = (date: Date, zone: string): Date => new TZDate(date.getFullYear(), date.getMonth(), date.getDate(), zone)

/** A date built from fields, in the zone `model` carries (a TZDate), else the browser's; fields overflow as Date's do. */
const dateLike = (model: Date, year: number, month: number, day: number, hours = 0, minutes = 0): Date =>
  model instanceof TZDate && model.timeZone !== undefined
    ? new TZDate(year, month, day, hours, minutes, model.timeZone)
    : new Date(year, month, day, hours, minutes)

export const startOfDay = (date: Date) => dateLike(date, date.getFullYear(), date.getMonth(), date.getDate())
/** A time of a day, in the day's zone ("14:30" of the calendar's Monday). */
export const atTime = (day: Date, hours: number, minutes: number) =>
  dateLike(day, day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes)
export const addDays = (date: Date, days: number) =>
  dateLike(date, date.getFullYear(), date.getMonth(), date.getDate() + days, date.getHours(), date.getMinutes())
export const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
export const startOfWeek = (date: Date, weekStartsOn: WeekStart) => {
  const day = startOfDay(date)
  return addDays(day, -((day.getDay() - weekStartsOn + 7) % 7))
}

/** The days a view shows: one, seven, or the whole weeks covering the month. */
export const daysOf = (view: CalendarView, date: Date, weekStartsOn: WeekStart): ReadonlyArray<Date> => {
  if (view === "day") return [startOfDay(date)]
  if (view === "week") {
    const first = startOfWeek(date, weekStartsOn)
    return Array.from({ length: 7 }, (_, i) => addDays(first, i))
  }
  const first = startOfWeek(dateLike(date, date.getFullYear(), date.getMonth(), 1), weekStartsOn)
  const last = dateLike(date, date.getFullYear(), date.getMonth() + 1, 0)
  const days: Array<Date> = []
  for (let day = first; day <= last || days.length % 7 !== 0; day = addDays(day, 1)) days.push(day)
  return days
}

/** The instants the view covers, end exclusive (what the calendar call asks for). */
export const viewRange = (view: CalendarView, date: Date, weekStartsOn: WeekStart): { start: Date; end: Date } => {
  const days = daysOf(view, date, weekStartsOn)
  return { start: days[0]!, end: addDays(days[days.length - 1]!, 1) }
}

/** The date one view earlier (-1) or later (+1). */
export const shiftDate = (view: CalendarView, date: Date, direction: -1 | 1): Date => {
  if (view === "day") return addDays(startOfDay(date), direction)
  if (view === "week") return addDays(startOfDay(date), 7 * direction)
  // The same day of the next month, kept within that month (31 January → 28 or 29 February).
  const target = dateLike(date, date.getFullYear(), date.getMonth() + direction, 1)
  const lastDay = dateLike(date, target.getFullYear(), target.getMonth() + 1, 0).getDate()
  return dateLike(date, target.getFullYear(), target.getMonth(), Math.min(date.getDate(), lastDay))
}

/** The hours labelled down the side of the week and day views: 06:00, 07:00 … 21:00. */
export const hourSlots = (startHour = DAY_START_HOUR, endHour = DAY_END_HOUR) =>
  Array.from({ length: endHour - startHour }, (_, i) => startHour + i)

/** "09:05" (24-hour), in the zone `date` carries (see inZone). */
export const hhmm = (date: Date) => `${pad(date.getHours())}:${pad(date.getMinutes())}`

export interface Timed {
  readonly startTime: string
  readonly endTime: string
}

/** Events that touch the given day (an event may span several days). */
export const eventsOnDay = <E extends Timed>(events: ReadonlyArray<E>, day: Date): ReadonlyArray<E> => {
  const from = startOfDay(day).getTime()
  const to = addDays(startOfDay(day), 1).getTime()
  return events
    .filter((event) => new Date(event.startTime).getTime() < to && new Date(event.endTime).getTime() > from)
    .slice()
    .sort((a, b) => new Date(a.startTime).getTime() - new Date(b.startTime).getTime())
}

export interface PlacedEvent<E> {
  readonly event: E
  /** Position in the visible window, in percent of its height. */
  readonly top: number
  readonly height: number
  /** Side-by-side placement among overlapping events. */
  readonly column: number
  readonly columns: number
  /** The event runs (partly) outside 06:00–22:00 or the day: it is pinned to the edge. */
  readonly clipped: boolean
}

/** The shortest block drawn, in minutes, so a tiny or off-hours event stays visible and clickable. */
export const MIN_BLOCK_MINUTES = 30

/**
 * Places a day's events in the window [startHour, endHour): top and height in percent, overlapping
 * events side by side (each cluster of overlaps shares its column count).
 */
export const layoutDay = <E extends Timed>(
  events: ReadonlyArray<E>,
  day: Date,
  startHour = DAY_START_HOUR,
  endHour = DAY_END_HOUR
): ReadonlyArray<PlacedEvent<E>> => {
  const windowStart = dateLike(day, day.getFullYear(), day.getMonth(), day.getDate(), startHour).getTime()
  const total = (endHour - startHour) * 60
  const blocks = eventsOnDay(events, day).map((event) => {
    const start = (new Date(event.startTime).getTime() - windowStart) / MINUTE
    const end = (new Date(event.endTime).getTime() - windowStart) / MINUTE
    let from = Math.min(Math.max(start, 0), total)
    let to = Math.min(Math.max(end, 0), total)
    if (to - from < MIN_BLOCK_MINUTES) {
      if (from + MIN_BLOCK_MINUTES <= total) to = from + MIN_BLOCK_MINUTES
      else {
        to = total
        from = total - MIN_BLOCK_MINUTES
      }
    }
    return { event, from, to, clipped: start < 0 || end > total }
  })
  blocks.sort((a, b) => a.from - b.from || b.to - a.to)
  const placed: Array<PlacedEvent<E>> = []
  let cluster: Array<{ block: (typeof blocks)[number]; column: number }> = []
  let clusterEnd = -Infinity
  const flush = () => {
    const columns = cluster.reduce((max, item) => Math.max(max, item.column + 1), 0)
    for (const { block, column } of cluster) {
      placed.push({
        event: block.event,
        top: (block.from / total) * 100,
        height: ((block.to - block.from) / total) * 100,
        column,
        columns,
        clipped: block.clipped
      })
    }
    cluster = []
    clusterEnd = -Infinity
  }
  for (const block of blocks) {
    if (block.from >= clusterEnd) flush()
    // The first column whose last event has ended.
    const taken = new Set(cluster.filter((item) => item.block.to > block.from).map((item) => item.column))
    let column = 0
    while (taken.has(column)) column++
    cluster.push({ block, column })
    clusterEnd = Math.max(clusterEnd, block.to)
  }
  flush()
  return placed
}
