import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { clockOf, copyDay, timeChoices, type WeekDay } from "../../ui/booking/week"

const week = (ranges: (weekday: number) => WeekDay["ranges"]): Array<WeekDay> =>
  [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: ranges(weekday) }))

describe("the availability editor's week", () => {
  it("offers every quarter of an hour: starts 00:00 to 23:45, ends 00:15 to 24:00, and a saved time off the quarter", () => {
    const starts = timeChoices("start")
    expect([starts.length, starts[0], starts.at(-1)]).toEqual([96, "00:00", "23:45"])
    const ends = timeChoices("end")
    expect([ends.length, ends[0], ends.at(-1)]).toEqual([96, "00:15", "24:00"])
    expect(timeChoices("start", "09:10")).toContain("09:10")
    expect(timeChoices("start", "09:10").indexOf("09:10")).toBe(timeChoices("start", "09:10").indexOf("09:15") - 1)
    expect(clockOf(1440)).toBe("24:00")
  })

  it("copies a day's ranges onto the days asked, and leaves the others and the day itself as they were", () => {
    const range = fc.record({ start: fc.constantFrom("08:00", "09:00"), end: fc.constantFrom("12:00", "17:00", "24:00") })
    fc.assert(
      fc.property(
        fc.array(fc.array(range, { maxLength: 3 }), { minLength: 7, maxLength: 7 }),
        fc.integer({ min: 1, max: 7 }),
        fc.oneof(fc.constantFrom("all" as const, "weekdays" as const), fc.integer({ min: 1, max: 7 })),
        (days, from, target) => {
          const before = week((weekday) => days[weekday - 1]!)
          const after = copyDay(before, from, target)
          const copied = (weekday: number) =>
            weekday !== from && (target === "all" || (target === "weekdays" ? weekday <= 5 : weekday === target))
          for (const day of after) expect(day.ranges).toEqual(copied(day.weekday) ? days[from - 1] : days[day.weekday - 1])
        }
      )
    )
  })
})
