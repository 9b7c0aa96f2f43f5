// Pure rules of the availability editor's week (issue 23, item 15): the times a range can start or
// end at, and copying a day's ranges to other days. Free of React and Lingui so they are unit-tested.

/** A range of a day, "HH:MM" to "HH:MM" ("24:00" ends at midnight). */
export interface DayRange {
  readonly start: string
  readonly end: string
}
export interface WeekDay {
  readonly weekday: number
  readonly ranges: ReadonlyArray<DayRange>
}

/** The editor offers every quarter of an hour, as the free slots start. */
export const TIME_STEP_MINUTES = 15

const pad = (n: number) => String(n).padStart(2, "0")
/** Minutes after midnight as "HH:MM" (1440 is "24:00"). */
export const clockOf = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`

/**
 * The times offered for a start (00:00 to 23:45) or an end (00:15 to 24:00), every quarter of an
 * hour, with `current` among them when it is off the quarter (a plan saved with 09:10 still shows it).
 */
export const timeChoices = (edge: "start" | "end", current?: string): ReadonlyArray<string> => {
  const first = edge === "start" ? 0 : TIME_STEP_MINUTES
  const last = edge === "start" ? 24 * 60 - TIME_STEP_MINUTES : 24 * 60
  const choices: Array<string> = []
  for (let minutes = first; minutes <= last; minutes += TIME_STEP_MINUTES) choices.push(clockOf(minutes))
  if (current !== undefined && /^\d{2}:\d{2}$/.test(current) && !choices.includes(current)) return [...choices, current].sort()
  return choices
}

/** Where a day's ranges are copied: every other day, Monday to Friday, or one weekday (1 = Monday … 7 = Sunday). */
export type CopyTarget = "all" | "weekdays" | number

const targets = (target: CopyTarget): ReadonlyArray<number> =>
  target === "all" ? [1, 2, 3, 4, 5, 6, 7] : target === "weekdays" ? [1, 2, 3, 4, 5] : [target]

/** The week with `from`'s ranges copied onto `target`'s days (replacing theirs); `from` itself unchanged. */
export const copyDay = <D extends WeekDay>(week: ReadonlyArray<D>, from: number, target: CopyTarget): Array<D> => {
  const source = week.find((day) => day.weekday === from)
  if (source === undefined) return [...week]
  const onto = new Set(targets(target))
  return week.map((day) => (day.weekday !== from && onto.has(day.weekday) ? { ...day, ranges: source.ranges.map((r) => ({ ...r })) } : day))
}
