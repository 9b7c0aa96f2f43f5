import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type AvailabilityPlan,
  defaultPlan,
  freeSlots,
  type Interval,
  openIntervals,
  type PlanException,
  unavailability,
  validatePlan,
  validateSlotQuery
} from "../../src/modules/booking/availability/domain"
import { DAY, HOUR, MINUTE } from "../support/durations"

/**
 * Slot generation (issue 12) against an oracle that knows nothing of the implementation: the wall
 * clock of every 5-minute instant, read with Intl.DateTimeFormat. Plans, exceptions, bookings,
 * notice and buffer are drawn on a 5-minute grid around the daylight-saving changes of Europe/Paris
 * and America/Toronto (and in Asia/Tokyo, which has none), so sampling every 5 minutes is exact.
 */

const STEP = 5 * MINUTE
const RUNS = Number(process.env.SLOT_RUNS ?? 120)

const ZONES = ["Europe/Paris", "America/Toronto", "Asia/Tokyo"] as const
/** Local dates (noon UTC) of the 2026 changes, and an ordinary week. */
const CHANGES: Record<(typeof ZONES)[number], ReadonlyArray<string>> = {
  "Europe/Paris": ["2026-03-29", "2026-10-25", "2027-03-28"],
  "America/Toronto": ["2026-03-08", "2026-11-01", "2027-03-14"],
  "Asia/Tokyo": ["2026-03-29", "2026-10-25", "2026-07-15"]
}

const formats = new Map<string, Intl.DateTimeFormat>()
const walls = new Map<string, { key: string; weekday: number; minutes: number }>()
/** The wall clock at an instant: [sortable "YYYY-MM-DD HH:MM", ISO weekday, minutes of the day]. */
const wallOf = (zone: string, at: number) => {
  const cached = walls.get(`${zone}|${at}`)
  if (cached) return cached
  let format = formats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short"
    })
    formats.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((p) => [p.type, p.value]))
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday!) + 1
  const wall = {
    key: `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`,
    weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute)
  }
  walls.set(`${zone}|${at}`, wall)
  return wall
}

interface Scenario {
  readonly plan: AvailabilityPlan
  readonly busy: ReadonlyArray<Interval>
  readonly from: number
  readonly to: number
  readonly now: number
  readonly durationMinutes: number
}

/** Ranges of a day: sorted distinct 5-minute boundaries taken in pairs (some across 02:00–03:00). */
const dayRanges = fc
  .uniqueArray(
    fc.oneof(
      fc.integer({ min: 0, max: 288 }).map((i) => i * 5),
      fc.constantFrom(0, 60, 120, 150, 180, 240, 1440)
    ),
    {
      minLength: 0,
      maxLength: 6
    }
  )
  .map((points) => {
    const sorted = [...points].sort((a, b) => a - b)
    const ranges = []
    for (let i = 0; i + 1 < sorted.length; i += 2) ranges.push({ start: sorted[i]!, end: sorted[i + 1]! })
    return ranges
  })

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    change: fc.integer({ min: 0, max: 2 }),
    /** Window start relative to the change's date, in 5-minute steps (−3 to +1 days). */
    shift: fc.integer({ min: -3 * 288, max: 288 }),
    days: fc.integer({ min: 1, max: 6 }),
    weekly: fc.array(dayRanges, { minLength: 7, maxLength: 7 }),
    exceptions: fc.array(
      fc.record({
        kind: fc.constantFrom("closed" as const, "open" as const),
        at: fc.integer({ min: -288, max: 6 * 288 }),
        length: fc.integer({ min: 1, max: 288 })
      }),
      { maxLength: 4 }
    ),
    bookings: fc.array(fc.record({ at: fc.integer({ min: -288, max: 7 * 288 }), length: fc.integer({ min: 3, max: 48 }) }), {
      maxLength: 6
    }),
    /** Now relative to the window start, in 5-minute steps (−2 days to +1 day). */
    nowShift: fc.integer({ min: -576, max: 288 }),
    noticeMinutes: fc.constantFrom(0, 5, 30, 120, 600),
    bufferMinutes: fc.constantFrom(0, 5, 15, 30),
    durationMinutes: fc.constantFrom(15, 30, 60, 90, 180)
  })
  .map((d) => {
    const base = Date.parse(`${CHANGES[d.zone][d.change]}T00:00:00Z`)
    const from = base + d.shift * STEP
    const to = from + d.days * DAY
    const exceptions: Array<PlanException> = d.exceptions.map((e, i) => ({
      id: `e${i}`,
      kind: e.kind,
      startTime: new Date(from + e.at * STEP),
      endTime: new Date(from + (e.at + e.length) * STEP),
      note: null
    }))
    // Bookings never overlap each other (the exclusion constraint's rule).
    const busy: Array<Interval> = []
    for (const b of d.bookings) {
      const interval = { start: from + b.at * STEP, end: from + (b.at + b.length) * STEP }
      if (busy.every((o) => o.end <= interval.start || interval.end <= o.start)) busy.push(interval)
    }
    return {
      plan: {
        timeZone: d.zone,
        isDefault: false,
        weekly: d.weekly.map((ranges, i) => ({ weekday: i + 1, ranges })),
        exceptions,
        noticeMinutes: d.noticeMinutes,
        bufferMinutes: d.bufferMinutes
      },
      busy,
      from,
      to,
      now: from + d.nowShift * STEP,
      durationMinutes: d.durationMinutes
    }
  })

/**
 * The oracle: an instant is open when its wall clock lies in a range of its weekday and the clock had
 * not shown that time before (the second pass of a fall-back hour is not counted again), or when an
 * open exception covers it; and no closed exception covers it nor a booking widened by the buffer.
 */
const oracle = (s: Scenario) => {
  const { plan } = s
  const start = s.from - 3 * HOUR - plan.bufferMinutes * MINUTE
  const end = Math.max(s.to, s.from + 7 * DAY) + s.durationMinutes * MINUTE + 3 * HOUR
  const open = new Map<number, boolean>()
  let latest = ""
  const buffer = plan.bufferMinutes * MINUTE
  for (let at = start - 3 * HOUR; at < end; at += STEP) {
    const wall = wallOf(plan.timeZone, at)
    const repeat = wall.key <= latest
    if (wall.key > latest) latest = wall.key
    const ranges = plan.weekly.find((d) => d.weekday === wall.weekday)?.ranges ?? []
    const planned = !repeat && ranges.some((r) => r.start <= wall.minutes && wall.minutes < r.end)
    const inside = (e: PlanException) => e.startTime.getTime() <= at && at < e.endTime.getTime()
    const exceptional = plan.exceptions.some((e) => e.kind === "open" && inside(e))
    const closed = plan.exceptions.some((e) => e.kind === "closed" && inside(e))
    const near = s.busy.some((b) => b.start - buffer <= at && at < b.end + buffer)
    open.set(at, (planned || exceptional) && !closed && !near)
  }
  /** Whether a booking may start at `at` (on the 5-minute grid) for the duration. */
  const bookable = (at: number) => {
    if (at < s.now + plan.noticeMinutes * MINUTE || at <= s.now || at > s.now + 365 * DAY) return false
    for (let p = at; p < at + s.durationMinutes * MINUTE; p += STEP) if (open.get(p) !== true) return false
    return true
  }
  return { bookable, open }
}

const slotsOf = (s: Scenario) =>
  freeSlots({
    plan: s.plan,
    busy: s.busy,
    from: new Date(s.from),
    to: new Date(s.to),
    durationMinutes: s.durationMinutes,
    now: new Date(s.now)
  })

describe("free slots (property)", () => {
  it("every slot offered is inside the plan, outside exceptions and bookings plus buffer, after the notice; every bookable quarter hour is offered", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { bookable } = oracle(s)
        const offered = slotsOf(s).map((slot) => slot.startTime.getTime())
        // Distinct, increasing, on the quarter hours, within the window, of the asked duration.
        for (let i = 1; i < offered.length; i++) expect(offered[i]!).toBeGreaterThan(offered[i - 1]!)
        offered.forEach((at, i) => {
          expect(wallOf(s.plan.timeZone, at).minutes % 15).toBe(0)
          expect(at >= s.from && at < s.to).toBe(true)
          expect(bookable(at), `offered ${new Date(at).toISOString()} is not bookable`).toBe(true)
          // The booking check agrees (sampled: the next property checks it against the oracle everywhere).
          if (i % 11 === 0)
            expect(
              unavailability({
                plan: s.plan,
                busy: s.busy,
                startTime: new Date(at),
                endTime: new Date(at + s.durationMinutes * MINUTE),
                now: new Date(s.now)
              })
            ).toBeUndefined()
        })
        const set = new Set(offered)
        const firstQuarter = Math.ceil(s.from / (15 * MINUTE)) * 15 * MINUTE
        for (let at = firstQuarter; at < s.to; at += 15 * MINUTE) {
          if (bookable(at)) expect(set.has(at), `bookable ${new Date(at).toISOString()} not offered`).toBe(true)
        }
      }),
      { numRuns: RUNS }
    )
  }, 120_000)

  it("a time is bookable exactly when the oracle says so (the check POST /api/bookings uses)", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 6 * 288 }), fc.integer({ min: 1, max: 60 }), (s, at, length) => {
        const start = s.from + at * STEP
        const { open } = oracle({ ...s, durationMinutes: length * 5 })
        let expected = !(start < s.now + s.plan.noticeMinutes * MINUTE || start <= s.now || start > s.now + 365 * DAY)
        for (let p = start; expected && p < start + length * STEP; p += STEP) if (open.get(p) !== true) expected = false
        const answer = unavailability({
          plan: s.plan,
          busy: s.busy,
          startTime: new Date(start),
          endTime: new Date(start + length * STEP),
          now: new Date(s.now)
        })
        expect(answer === undefined).toBe(expected)
      }),
      { numRuns: RUNS }
    )
  }, 120_000)
})

describe("daylight-saving changes", () => {
  const allDay = (zone: string, start: number, end: number): AvailabilityPlan => ({
    ...defaultPlan(zone),
    isDefault: false,
    weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start, end }] })),
    noticeMinutes: 0
  })
  const quarterSlots = (plan: AvailabilityPlan, day: string) =>
    freeSlots({
      plan,
      busy: [],
      from: new Date(Date.parse(`${day}T00:00:00Z`) - DAY),
      to: new Date(Date.parse(`${day}T00:00:00Z`) + 2 * DAY),
      durationMinutes: 15,
      now: new Date("2026-01-01T00:00:00Z")
    }).filter((slot) => wallOf(plan.timeZone, slot.startTime.getTime()).key.startsWith(day))

  it("no slot in a spring-forward gap: 01:00–04:00 is two real hours, 02:00–03:00 is nothing", () => {
    for (const [zone, day] of [
      ["Europe/Paris", "2026-03-29"],
      ["America/Toronto", "2026-03-08"]
    ] as const) {
      const slots = quarterSlots(allDay(zone, 60, 240), day)
      expect(slots).toHaveLength(8)
      for (const slot of slots) expect(wallOf(zone, slot.startTime.getTime()).key.slice(11, 13)).not.toBe("02")
      expect(quarterSlots(allDay(zone, 120, 180), day)).toEqual([])
      // A 3-hour booking no longer fits in the shortened range.
      expect(
        freeSlots({
          plan: allDay(zone, 60, 240),
          busy: [],
          from: new Date(`${day}T00:00:00Z`),
          to: new Date(Date.parse(`${day}T00:00:00Z`) + 20 * HOUR),
          durationMinutes: 180,
          now: new Date("2026-01-01T00:00:00Z")
        })
      ).toEqual([])
    }
  })

  it("no hour counted twice at a fall-back: 01:00–04:00 is three real hours, 02:00–03:00 one, each quarter hour once", () => {
    for (const [zone, day] of [
      ["Europe/Paris", "2026-10-25"],
      ["America/Toronto", "2026-11-01"]
    ] as const) {
      const slots = quarterSlots(allDay(zone, 60, 240), day)
      expect(slots).toHaveLength(12)
      const walls = slots.map((slot) => wallOf(zone, slot.startTime.getTime()).key)
      expect(new Set(walls).size).toBe(12)
      expect(quarterSlots(allDay(zone, 120, 180), day)).toHaveLength(4)
    }
  })

  it("Asia/Tokyo has no change: every day of 08:00–20:00 is twelve hours", () => {
    const open = openIntervals(defaultPlan("Asia/Tokyo"), {
      start: Date.parse("2026-03-27T15:00:00Z"),
      end: Date.parse("2026-03-31T15:00:00Z")
    })
    expect(open.map((i) => (i.end - i.start) / HOUR)).toEqual([12, 12, 12, 12])
    expect(new Date(open[0]!.start).toISOString()).toBe("2026-03-27T23:00:00.000Z")
  })

  it("a range ending at 24:00 joins the next day's range from 00:00 (a slot may run past midnight)", () => {
    const plan = allDay("Europe/Paris", 0, 1440)
    const open = openIntervals(plan, { start: Date.parse("2026-03-27T00:00:00Z"), end: Date.parse("2026-04-03T00:00:00Z") })
    expect(open).toHaveLength(1)
    expect(
      freeSlots({
        plan,
        busy: [],
        from: new Date("2026-03-28T22:00:00Z"),
        to: new Date("2026-03-28T22:15:00Z"),
        durationMinutes: 240,
        now: new Date("2026-01-01T00:00:00Z")
      })
    ).toHaveLength(1)
  })

  it("the default plan: 08:00–20:00 every day in the zone, 2 hours' notice", () => {
    const plan = defaultPlan("America/Toronto")
    expect(plan.isDefault).toBe(true)
    const now = new Date("2026-06-10T13:05:00Z") // 09:05 in Toronto
    const slots = freeSlots({ plan, busy: [], from: now, to: new Date("2026-06-11T04:00:00Z"), durationMinutes: 60, now })
    expect(slots[0]!.startTime.toISOString()).toBe("2026-06-10T15:15:00.000Z") // 11:15, after 2 h notice
    expect(slots.at(-1)!.startTime.toISOString()).toBe("2026-06-10T23:00:00.000Z") // 19:00, ends at 20:00
  })
})

describe("plan and query validation", () => {
  const problems = (either: Either.Either<unknown, { details: ReadonlyArray<{ field: string; key: string }> }>) =>
    Either.isLeft(either) ? either.left.details.map((d) => [d.field, d.key]) : []

  it("accepts a plan in the account's zone and defaults the notice and the buffer", () => {
    const plan = validatePlan(
      {
        weekly: [
          {
            weekday: 2,
            ranges: [
              { start: "14:00", end: "18:00" },
              { start: "09:00", end: "12:00" }
            ]
          }
        ]
      },
      "America/Toronto"
    )
    expect(Either.getOrThrow(plan)).toEqual({
      weekly: [
        {
          weekday: 2,
          ranges: [
            { start: 540, end: 720 },
            { start: 840, end: 1080 }
          ]
        }
      ],
      exceptions: [],
      noticeMinutes: 120,
      bufferMinutes: 0
    })
  })

  it("has no zone of its own: the account's is accepted when sent back, another one refused", () => {
    const weekly = [{ weekday: 1, ranges: [{ start: "09:00", end: "12:00" }] }]
    expect(Either.isRight(validatePlan({ weekly, timeZone: "America/Toronto" }, "America/Toronto"))).toBe(true)
    expect(problems(validatePlan({ weekly, timeZone: "Asia/Tokyo" }, "America/Toronto"))).toEqual([
      ["timeZone", "validation.zoneOfAccount"]
    ])
  })

  it("refuses per field: overlapping ranges, end before start, bad zone, bad notice and buffer, exceptions ending before they start", () => {
    const result = validatePlan(
      {
        timeZone: "Mars/Olympus",
        weekly: [
          {
            weekday: 1,
            ranges: [
              { start: "09:00", end: "12:00" },
              { start: "11:00", end: "13:00" }
            ]
          },
          {
            weekday: 1,
            ranges: [
              { start: "18:00", end: "08:00" },
              { start: "25:00", end: "24:00" }
            ]
          },
          { weekday: 9, ranges: [] }
        ],
        exceptions: [
          { kind: "closed", startTime: "2026-12-25T10:00:00Z", endTime: "2026-12-25T09:00:00Z" },
          { kind: "maybe", startTime: "soon", endTime: "2026-12-25T09:00:00Z", note: 3 }
        ],
        noticeMinutes: -5,
        bufferMinutes: 1.5
      },
      "Europe/Paris"
    )
    expect(problems(result)).toEqual([
      ["timeZone", "validation.timeZone"],
      ["weekly[0].ranges[1]", "availability.overlappingRanges"],
      ["weekly[1].weekday", "availability.duplicateWeekday"],
      ["weekly[1].ranges[0].end", "availability.endBeforeStart"],
      ["weekly[1].ranges[1].start", "validation.clockTime"],
      ["weekly[2].weekday", "availability.invalidWeekday"],
      ["exceptions[0].endTime", "availability.endBeforeStart"],
      ["exceptions[1].kind", "availability.invalidKind"],
      ["exceptions[1].startTime", "booking.invalidDate"],
      ["exceptions[1].note", "request.invalidField"],
      ["noticeMinutes", "availability.invalidNotice"],
      ["bufferMinutes", "availability.invalidBuffer"]
    ])
  })

  it("a slots query: a window of at most 62 days, a duration of quarter hours", () => {
    expect(Either.isRight(validateSlotQuery({ from: "2026-06-01T00:00:00Z", to: "2026-08-02T00:00:00Z", duration: "60" }))).toBe(true)
    expect(problems(validateSlotQuery({ from: "2026-06-01T00:00:00Z", to: "2026-08-02T00:00:01Z", duration: "50" }))).toEqual([
      ["to", "availability.windowTooLong"],
      ["duration", "availability.invalidDuration"]
    ])
    expect(problems(validateSlotQuery({ from: "x", to: "2026-05-01T00:00:00Z" }))).toEqual([
      ["from", "booking.invalidDate"],
      ["duration", "validation.required"]
    ])
    expect(problems(validateSlotQuery({ from: "2026-06-02T00:00:00Z", to: "2026-06-01T00:00:00Z", duration: 15 }))).toEqual([
      ["to", "availability.endBeforeStart"]
    ])
  })
})
