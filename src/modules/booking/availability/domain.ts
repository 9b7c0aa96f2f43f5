import { TZDate, tzOffset, tzScan } from "@date-fns/tz"
import { Either } from "effect"
import { type FieldIssue, invalid, issue, ValidationFailed } from "../../../platform/errors"
import { isTimeZone } from "../../../platform/time-zones"
import { MAX_ADVANCE_DAYS, MAX_DURATION_MINUTES } from "../domain"
import {
  BUFFER_MAX_MINUTES,
  DEFAULT_BUFFER_MINUTES,
  DEFAULT_NOTICE_MINUTES,
  DEFAULT_OPEN_RANGE,
  EXCEPTION_NOTE_MAX,
  type ExceptionKind,
  ExceptionKinds,
  EXCEPTIONS_MAX,
  minutesOfClock,
  NOTICE_MAX_MINUTES,
  RANGES_PER_DAY_MAX,
  SLOT_STEP_MINUTES,
  SLOT_WINDOW_MAX_DAYS,
  Weekdays
} from "./rules"

/**
 * A provider's availability (issue 12): a weekly plan of wall-clock ranges in the provider's zone,
 * exceptions (closed or extra open instants), a minimum notice and a buffer around bookings. Pure:
 * the open time of a window, the free start times of a duration, and whether a requested time is
 * bookable. Wall-clock times become instants through @date-fns/tz (TZDate, tzScan), never through
 * offsets computed by hand.
 */

export * from "./rules"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const STEP = SLOT_STEP_MINUTES * MINUTE

/** A wall-clock range of one weekday, in minutes of the day ([start, end), end ≤ 1440). */
export interface ClockRange {
  readonly start: number
  readonly end: number
}
export interface WeekdayPlan {
  /** ISO weekday, 1 = Monday. */
  readonly weekday: number
  readonly ranges: ReadonlyArray<ClockRange>
}
export interface PlanException {
  readonly id: string
  readonly kind: ExceptionKind
  readonly startTime: Date
  readonly endTime: Date
  readonly note: string | null
}
export interface AvailabilityPlan {
  readonly timeZone: string
  /** No plan stored: the default (open 08:00 to 20:00 every day in the provider's zone). */
  readonly isDefault: boolean
  readonly weekly: ReadonlyArray<WeekdayPlan>
  readonly exceptions: ReadonlyArray<PlanException>
  readonly noticeMinutes: number
  readonly bufferMinutes: number
}
/** Instants in epoch milliseconds, [start, end). */
export interface Interval {
  readonly start: number
  readonly end: number
}

/** The plan of a provider who has not set one. */
export const defaultPlan = (timeZone: string): AvailabilityPlan => {
  const range = { start: minutesOfClock(DEFAULT_OPEN_RANGE.start)!, end: minutesOfClock(DEFAULT_OPEN_RANGE.end, true)! }
  return {
    timeZone,
    isDefault: true,
    weekly: Weekdays.map((weekday) => ({ weekday, ranges: [range] })),
    exceptions: [],
    noticeMinutes: DEFAULT_NOTICE_MINUTES,
    bufferMinutes: DEFAULT_BUFFER_MINUTES
  }
}

// ---- Wall-clock times to instants ------------------------------------------------------------

/**
 * The zone's offset changes in [start, end], to the minute. tzScan finds them to the hour, counted from
 * its start: it is started on a whole hour, and each change is narrowed down with tzOffset.
 */
const changesBetween = (zone: string, start: number, end: number) =>
  tzScan(zone, { start: new Date(Math.floor(start / HOUR) * HOUR), end: new Date(end) }).map((change) => {
    // The offset before the change holds at `low`, the new one at `high`: bisect to the minute.
    let low = change.date.getTime() - HOUR
    let high = change.date.getTime()
    const before = tzOffset(zone, new Date(low))
    while (high - low > MINUTE) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE
      if (tzOffset(zone, new Date(middle)) === before) low = middle
      else high = middle
    }
    return { date: high, change: change.change }
  })

/**
 * The first instant of a wall-clock time of a local date in `zone`. A time inside a spring-forward gap
 * (02:30 in Paris on the last Sunday of March) becomes the change itself (the first instant after the
 * gap): a range loses exactly the missing hour. A time repeated at a fall-back (02:30 on the last
 * Sunday of October) is its first occurrence (TZDate gives the second).
 */
const firstInstant = (zone: string, year: number, month: number, day: number, minute: number): number => {
  const local = new TZDate(year, month, day, 0, minute, zone)
  const at = local.getTime()
  // The wall time asked for, normalised by the calendar (24:00 is the next day's 00:00): no zone involved.
  const wanted = new Date(Date.UTC(year, month, day, 0, minute))
  const exists =
    local.getFullYear() === wanted.getUTCFullYear() &&
    local.getMonth() === wanted.getUTCMonth() &&
    local.getDate() === wanted.getUTCDate() &&
    local.getHours() === wanted.getUTCHours() &&
    local.getMinutes() === wanted.getUTCMinutes()
  const changes = changesBetween(zone, at - DAY, at + MINUTE)
  if (!exists) {
    // In a gap TZDate moves forward by the gap: the gap's end is the last forward change before `at`.
    const forward = changes.filter((c) => c.change > 0 && c.date <= at).at(-1)
    return forward ? forward.date : at
  }
  // Repeated after a backward change at T of |change| minutes: `at` in [T, T + |change|) first occurred |change| earlier.
  const backward = changes.find((c) => c.change < 0 && c.date <= at && at < c.date - c.change * MINUTE)
  return backward ? at + backward.change * MINUTE : at
}

const rangeCache = new Map<string, ReadonlyArray<Interval>>()
const RANGE_CACHE_MAX = 100_000

/**
 * The instants of a wall-clock range on a local date: from the first occurrence of its start to the
 * first occurrence of its end, without the second pass of a repeated hour. So every wall-clock time
 * of the range is open once: a range across a spring-forward gap is shorter by the gap (01:00–04:00 is
 * two real hours), and one across a fall-back is not longer (01:00–04:00 is three real hours, the
 * repeated 02:00–03:00 open on its first pass only). Memoised: TZDate is costly and plans repeat weekly.
 */
export const rangeInstants = (zone: string, year: number, month: number, day: number, range: ClockRange): ReadonlyArray<Interval> => {
  const key = `${zone}|${year}|${month}|${day}|${range.start}|${range.end}`
  const cached = rangeCache.get(key)
  if (cached !== undefined) return cached
  const start = firstInstant(zone, year, month, day, range.start)
  const end = firstInstant(zone, year, month, day, range.end)
  const repeats = changesBetween(zone, start, end)
    .filter((c) => c.change < 0)
    .map((c) => ({ start: c.date, end: c.date - c.change * MINUTE }))
  const intervals = end > start ? subtractIntervals([{ start, end }], repeats) : []
  if (rangeCache.size >= RANGE_CACHE_MAX) rangeCache.clear()
  rangeCache.set(key, intervals)
  return intervals
}

// ---- Interval algebra ------------------------------------------------------------------------

/** Sorted, with overlapping or touching intervals joined. */
export const mergeIntervals = (intervals: ReadonlyArray<Interval>): Array<Interval> => {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start)
  const out: Array<Interval> = []
  for (const i of sorted) {
    const last = out.at(-1)
    if (last && i.start <= last.end) out[out.length - 1] = { start: last.start, end: Math.max(last.end, i.end) }
    else out.push(i)
  }
  return out
}

/** `from` (merged) minus every interval of `holes`. */
export const subtractIntervals = (from: ReadonlyArray<Interval>, holes: ReadonlyArray<Interval>): Array<Interval> => {
  const cuts = mergeIntervals(holes)
  const out: Array<Interval> = []
  let k = 0
  for (const i of from) {
    let start = i.start
    while (k < cuts.length && cuts[k]!.end <= start) k++
    let j = k
    while (j < cuts.length && cuts[j]!.start < i.end) {
      const cut = cuts[j]!
      if (cut.start > start) out.push({ start, end: cut.start })
      start = Math.max(start, cut.end)
      j++
    }
    if (start < i.end) out.push({ start, end: i.end })
  }
  return out
}

const clip = (intervals: ReadonlyArray<Interval>, window: Interval) =>
  intervals.map((i) => ({ start: Math.max(i.start, window.start), end: Math.min(i.end, window.end) })).filter((i) => i.end > i.start)

// ---- Open and free time ----------------------------------------------------------------------

/**
 * The plan's open time within `window`: the weekly ranges of every local date the window touches,
 * in the plan's zone, plus the open exceptions, minus the closed ones; merged (a range ending at
 * 24:00 joins the next day's range starting at 00:00) and clipped to the window.
 */
export const openIntervals = (plan: AvailabilityPlan, window: Interval): Array<Interval> => {
  if (window.end <= window.start) return []
  const byWeekday = new Map(plan.weekly.map((d) => [d.weekday, d.ranges]))
  const first = new TZDate(window.start, plan.timeZone)
  const [year, month, day] = [first.getFullYear(), first.getMonth(), first.getDate()]
  const ranges: Array<Interval> = []
  // A local date lasts at most 27 hours: this many dates cover the window.
  const dates = Math.ceil((window.end - window.start) / DAY) + 2
  for (let i = -1; i < dates; i++) {
    // Calendar arithmetic only (the date's weekday and its normalised day, month, year).
    const date = new Date(Date.UTC(year, month, day + i))
    const weekday = date.getUTCDay() === 0 ? 7 : date.getUTCDay()
    for (const range of byWeekday.get(weekday) ?? []) {
      for (const interval of rangeInstants(plan.timeZone, date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), range))
        if (interval.end > window.start && interval.start < window.end) ranges.push(interval)
    }
  }
  const asInterval = (e: PlanException) => ({ start: e.startTime.getTime(), end: e.endTime.getTime() })
  const open = mergeIntervals([...ranges, ...plan.exceptions.filter((e) => e.kind === "open").map(asInterval)])
  return clip(subtractIntervals(open, plan.exceptions.filter((e) => e.kind === "closed").map(asInterval)), window)
}

/** The open time minus the slot-holding bookings widened by the buffer on both sides. */
export const freeIntervals = (plan: AvailabilityPlan, busy: ReadonlyArray<Interval>, window: Interval): Array<Interval> => {
  const buffer = plan.bufferMinutes * MINUTE
  return subtractIntervals(
    openIntervals(plan, window),
    busy.map((b) => ({ start: b.start - buffer, end: b.end + buffer }))
  )
}

/** The first start at or after `at` on the zone's quarter hours (xx:00, :15, :30, :45 local). */
export const alignToQuarter = (at: number, zone: string): number => {
  const local = new TZDate(at, zone)
  const past = (local.getMinutes() % SLOT_STEP_MINUTES) * MINUTE + local.getSeconds() * 1000 + local.getMilliseconds()
  return past === 0 ? at : at - past + STEP
}

/** The earliest and latest start a booking may have at `now` (notice, strictly future, the one-year horizon). */
const startBounds = (plan: AvailabilityPlan, now: Date) => ({
  earliest: Math.max(now.getTime() + plan.noticeMinutes * MINUTE, now.getTime() + 1),
  latest: now.getTime() + MAX_ADVANCE_DAYS * DAY
})

export interface SlotQuery {
  readonly plan: AvailabilityPlan
  /** The provider's slot-holding bookings around the window (at least [from − buffer, to + duration + buffer)). */
  readonly busy: ReadonlyArray<Interval>
  readonly from: Date
  readonly to: Date
  readonly durationMinutes: number
  readonly now: Date
}

/**
 * The free start times in [from, to) for the duration: every 15 minutes on the zone's quarter hours,
 * each slot inside one free interval (open time, outside the closed exceptions and the bookings plus
 * buffer), starting after now + notice and within the one-year horizon. Offsets change by whole
 * quarter hours (30 or 60 minutes), so stepping 15 minutes of real time stays on the quarter hours.
 */
export const freeSlots = (query: SlotQuery): Array<{ readonly startTime: Date }> => {
  const duration = query.durationMinutes * MINUTE
  const from = query.from.getTime()
  const to = query.to.getTime()
  const { earliest, latest } = startBounds(query.plan, query.now)
  const zone = query.plan.timeZone
  // Where every offset of the window is a whole number of quarter hours (every zone today: tzOffset and
  // tzScan say so), the zone's quarter hours are UTC's and aligning needs no TZDate per interval.
  const quarterOffsets =
    tzOffset(zone, query.from) % SLOT_STEP_MINUTES === 0 &&
    tzScan(zone, { start: query.from, end: new Date(to + duration) }).every((c) => c.offset % SLOT_STEP_MINUTES === 0)
  const align = quarterOffsets ? (at: number) => Math.ceil(at / STEP) * STEP : (at: number) => alignToQuarter(at, zone)
  const slots: Array<{ startTime: Date }> = []
  for (const free of freeIntervals(query.plan, query.busy, { start: from, end: to + duration })) {
    const lower = Math.max(free.start, earliest, from)
    if (lower + duration > free.end) continue
    for (let t = align(lower); t < to && t <= latest && t + duration <= free.end; t += STEP) {
      slots.push({ startTime: new Date(t) })
    }
  }
  return slots
}

/** Why a time is not bookable (undefined: it is). The slot-holding overlap itself is the exclusion constraint's to refuse. */
export const unavailability = (query: {
  readonly plan: AvailabilityPlan
  /** Slot-holding bookings near the time that do not overlap it (an overlap is a 409, decided by the constraint). */
  readonly busy: ReadonlyArray<Interval>
  readonly startTime: Date
  readonly endTime: Date
  readonly now: Date
}): "notice" | "outside" | undefined => {
  const start = query.startTime.getTime()
  const end = query.endTime.getTime()
  const { earliest, latest } = startBounds(query.plan, query.now)
  if (start < earliest) return "notice"
  if (start > latest) return "outside"
  const free = freeIntervals(query.plan, query.busy, { start, end })
  return free.length === 1 && free[0]!.start === start && free[0]!.end === end ? undefined : "outside"
}

/** The 422 of a time outside the provider's availability (POST /api/bookings, rescheduling). */
export const outsideAvailability = (reason: "notice" | "outside", noticeMinutes: number) =>
  new ValidationFailed({
    code: "OUTSIDE_AVAILABILITY",
    key: "booking.outsideAvailability",
    details: [
      reason === "notice"
        ? issue("startTime", "availability.noticeTooShort", { minutes: String(noticeMinutes) })
        : issue("startTime", "booking.outsideAvailability")
    ]
  })

// ---- Input -----------------------------------------------------------------------------------

export interface PlanInput {
  readonly timeZone?: unknown
  readonly weekly?: unknown
  readonly exceptions?: unknown
  readonly noticeMinutes?: unknown
  readonly bufferMinutes?: unknown
}
export interface ValidPlan {
  readonly weekly: ReadonlyArray<WeekdayPlan>
  readonly exceptions: ReadonlyArray<Omit<PlanException, "id">>
  readonly noticeMinutes: number
  readonly bufferMinutes: number
}

const parseInstant = (value: unknown): Date | undefined => {
  if (typeof value !== "string" || value.trim() === "") return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)
const wholeMinutes = (value: unknown, max: number): number | undefined => {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= max ? n : undefined
}

/**
 * Checks a plan as PUT by its provider: no zone but the account's (the plan has none of its own: a
 * different one is refused, not ignored, and changed in the account's settings), each weekday once with
 * at most RANGES_PER_DAY_MAX ranges "HH:MM"–"HH:MM" (end after start, none overlapping), exceptions
 * (closed or open, end after start, a short note), a notice and a buffer in whole minutes. Every
 * problem is reported, per field (`weekly[0].ranges[1].end`, `exceptions[2].endTime`...).
 */
export const validatePlan = (input: PlanInput, accountZone: string): Either.Either<ValidPlan, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  if (input.timeZone !== undefined && input.timeZone !== null && input.timeZone !== accountZone)
    problems.push(issue("timeZone", isTimeZone(input.timeZone) ? "validation.zoneOfAccount" : "validation.timeZone"))
  const weekly: Array<WeekdayPlan> = []
  if (!Array.isArray(input.weekly))
    problems.push(issue("weekly", input.weekly === undefined ? "validation.required" : "request.invalidField"))
  else {
    const seen = new Set<number>()
    input.weekly.forEach((day: unknown, i) => {
      const at = `weekly[${i}]`
      if (!isRecord(day)) return problems.push(issue(at, "request.invalidField"))
      const weekday = day.weekday
      if (typeof weekday !== "number" || !Number.isInteger(weekday) || weekday < 1 || weekday > 7)
        problems.push(issue(`${at}.weekday`, "availability.invalidWeekday"))
      else if (seen.has(weekday)) problems.push(issue(`${at}.weekday`, "availability.duplicateWeekday"))
      else seen.add(weekday)
      if (!Array.isArray(day.ranges)) return problems.push(issue(`${at}.ranges`, "request.invalidField"))
      if (day.ranges.length > RANGES_PER_DAY_MAX)
        return problems.push(issue(`${at}.ranges`, "availability.tooManyRanges", { max: String(RANGES_PER_DAY_MAX) }))
      const ranges: Array<ClockRange & { index: number }> = []
      day.ranges.forEach((range: unknown, j) => {
        const field = `${at}.ranges[${j}]`
        if (!isRecord(range)) return problems.push(issue(field, "request.invalidField"))
        const start = minutesOfClock(range.start)
        const end = minutesOfClock(range.end, true)
        if (start === undefined) problems.push(issue(`${field}.start`, "validation.clockTime"))
        if (end === undefined) problems.push(issue(`${field}.end`, "validation.clockTime"))
        if (start !== undefined && end !== undefined) {
          if (end <= start) problems.push(issue(`${field}.end`, "availability.endBeforeStart"))
          else ranges.push({ start, end, index: j })
        }
      })
      const sorted = [...ranges].sort((a, b) => a.start - b.start)
      for (let k = 1; k < sorted.length; k++) {
        if (sorted[k]!.start < sorted[k - 1]!.end)
          problems.push(issue(`${at}.ranges[${sorted[k]!.index}]`, "availability.overlappingRanges"))
      }
      if (typeof weekday === "number") weekly.push({ weekday, ranges: sorted.map(({ start, end }) => ({ start, end })) })
    })
  }
  const exceptions: Array<Omit<PlanException, "id">> = []
  if (input.exceptions !== undefined && input.exceptions !== null) {
    if (!Array.isArray(input.exceptions)) problems.push(issue("exceptions", "request.invalidField"))
    else if (input.exceptions.length > EXCEPTIONS_MAX)
      problems.push(issue("exceptions", "availability.tooManyExceptions", { max: String(EXCEPTIONS_MAX) }))
    else
      input.exceptions.forEach((exception: unknown, i) => {
        const at = `exceptions[${i}]`
        if (!isRecord(exception)) return problems.push(issue(at, "request.invalidField"))
        const kind = exception.kind
        if (!(ExceptionKinds as ReadonlyArray<unknown>).includes(kind)) problems.push(issue(`${at}.kind`, "availability.invalidKind"))
        const start = parseInstant(exception.startTime)
        const end = parseInstant(exception.endTime)
        if (!start) problems.push(issue(`${at}.startTime`, exception.startTime == null ? "validation.required" : "booking.invalidDate"))
        if (!end) problems.push(issue(`${at}.endTime`, exception.endTime == null ? "validation.required" : "booking.invalidDate"))
        if (start && end && end.getTime() <= start.getTime()) problems.push(issue(`${at}.endTime`, "availability.endBeforeStart"))
        const note = typeof exception.note === "string" ? exception.note.trim() : ""
        if (exception.note !== undefined && exception.note !== null && typeof exception.note !== "string")
          problems.push(issue(`${at}.note`, "request.invalidField"))
        else if (note.length > EXCEPTION_NOTE_MAX) problems.push(issue(`${at}.note`, "validation.tooLong"))
        if (start && end) exceptions.push({ kind: kind as ExceptionKind, startTime: start, endTime: end, note: note === "" ? null : note })
      })
  }
  const noticeMinutes =
    input.noticeMinutes === undefined || input.noticeMinutes === null
      ? DEFAULT_NOTICE_MINUTES
      : wholeMinutes(input.noticeMinutes, NOTICE_MAX_MINUTES)
  if (noticeMinutes === undefined) problems.push(issue("noticeMinutes", "availability.invalidNotice", { max: String(NOTICE_MAX_MINUTES) }))
  const bufferMinutes =
    input.bufferMinutes === undefined || input.bufferMinutes === null
      ? DEFAULT_BUFFER_MINUTES
      : wholeMinutes(input.bufferMinutes, BUFFER_MAX_MINUTES)
  if (bufferMinutes === undefined) problems.push(issue("bufferMinutes", "availability.invalidBuffer", { max: String(BUFFER_MAX_MINUTES) }))
  if (problems.length > 0) return Either.left(invalid(problems))
  return Either.right({
    weekly: weekly.sort((a, b) => a.weekday - b.weekday),
    exceptions,
    noticeMinutes: noticeMinutes!,
    bufferMinutes: bufferMinutes!
  })
}

export interface SlotWindow {
  readonly from: Date
  readonly to: Date
  readonly durationMinutes: number
}

/** Checks a slots query: from and to ISO instants, to after from and at most 62 days later; a duration of 15-minute steps. */
export const validateSlotQuery = (input: {
  readonly from?: unknown
  readonly to?: unknown
  readonly duration?: unknown
}): Either.Either<SlotWindow, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const from = parseInstant(input.from)
  const to = parseInstant(input.to)
  if (!from) problems.push(issue("from", input.from == null || input.from === "" ? "validation.required" : "booking.invalidDate"))
  if (!to) problems.push(issue("to", input.to == null || input.to === "" ? "validation.required" : "booking.invalidDate"))
  if (from && to) {
    if (to.getTime() <= from.getTime()) problems.push(issue("to", "availability.endBeforeStart"))
    else if (to.getTime() - from.getTime() > SLOT_WINDOW_MAX_DAYS * DAY)
      problems.push(issue("to", "availability.windowTooLong", { days: String(SLOT_WINDOW_MAX_DAYS) }))
  }
  const duration = typeof input.duration === "string" && input.duration.trim() !== "" ? Number(input.duration) : input.duration
  const durationOk =
    typeof duration === "number" &&
    Number.isInteger(duration) &&
    duration >= SLOT_STEP_MINUTES &&
    duration <= MAX_DURATION_MINUTES &&
    duration % SLOT_STEP_MINUTES === 0
  if (!durationOk)
    problems.push(
      issue("duration", input.duration == null || input.duration === "" ? "validation.required" : "availability.invalidDuration", {
        step: String(SLOT_STEP_MINUTES),
        max: String(MAX_DURATION_MINUTES)
      })
    )
  if (problems.length > 0) return Either.left(invalid(problems))
  return Either.right({ from: from!, to: to!, durationMinutes: duration as number })
}
