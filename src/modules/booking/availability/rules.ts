// Availability's limits and literal lists, in a file that imports nothing: the domain, the contract
// and the UI (the availability screen checks the same limits before sending) share it.

/** Minimum notice before a booking may start, when the provider says nothing (2 hours). */
export const DEFAULT_NOTICE_MINUTES = 120
/** Free time kept between two bookings, when the provider says nothing. */
export const DEFAULT_BUFFER_MINUTES = 0
/** The notice is at most 30 days, the buffer at most 12 hours (whole minutes). */
export const NOTICE_MAX_MINUTES = 30 * 24 * 60
export const BUFFER_MAX_MINUTES = 12 * 60
/** Ranges per weekday and exceptions per plan. */
export const RANGES_PER_DAY_MAX = 12
export const EXCEPTIONS_MAX = 200
export const EXCEPTION_NOTE_MAX = 200
/** Free start times are offered every 15 minutes, on the provider zone's quarter hours. */
export const SLOT_STEP_MINUTES = 15
/** A slots query covers at most 62 days. */
export const SLOT_WINDOW_MAX_DAYS = 62
/** The plan of a provider who has not set one: open 08:00 to 20:00 every day, in their zone. */
export const DEFAULT_OPEN_RANGE = { start: "08:00", end: "20:00" } as const
/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const Weekdays = [1, 2, 3, 4, 5, 6, 7] as const
export const ExceptionKinds = ["closed", "open"] as const
export type ExceptionKind = (typeof ExceptionKinds)[number]

/** "HH:MM" (00:00 to 24:00, 24:00 only as an end) → minutes of the day; undefined when malformed. */
export const minutesOfClock = (text: unknown, asEnd = false): number | undefined => {
  if (typeof text !== "string") return undefined
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text.trim())
  if (!match) return undefined
  const minutes = Number(match[1]) * 60 + Number(match[2])
  if (minutes > 24 * 60 || (minutes === 24 * 60 && !asEnd)) return undefined
  return minutes
}

/** Minutes of the day → "HH:MM" (1440 → "24:00"). */
export const clockOfMinutes = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`
