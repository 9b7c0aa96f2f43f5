// Reminders before a confirmed booking: pure rules (which reminder is due at an instant).

const HOUR = 60 * 60 * 1000

/** The reminders, latest-sent last: each one is due from `lead` before the start until the start. */
export const ReminderKinds = ["24h", "2h"] as const
export type ReminderKind = (typeof ReminderKinds)[number]

export const REMINDER_LEAD_MS: Readonly<Record<ReminderKind, number>> = { "24h": 24 * HOUR, "2h": 2 * HOUR }

/** The longest lead: a booking starting later than this from now has nothing due. */
export const LONGEST_REMINDER_LEAD_MS = REMINDER_LEAD_MS["24h"]

/**
 * The reminder due at `now` for a booking starting at `start`, if any: the one whose window
 * [start − lead, start) holds `now` with the shortest lead. So a booking confirmed 90 minutes before
 * it starts gets the 2-hour reminder only (the day-before one would say the same thing, later than
 * it should), and nothing is due once it has started. Whether it was sent already for this start
 * is the reminder log's to say.
 */
export const dueReminder = (start: Date, now: Date): ReminderKind | undefined => {
  const left = start.getTime() - now.getTime()
  if (left <= 0) return undefined
  if (left <= REMINDER_LEAD_MS["2h"]) return "2h"
  if (left <= REMINDER_LEAD_MS["24h"]) return "24h"
  return undefined
}
