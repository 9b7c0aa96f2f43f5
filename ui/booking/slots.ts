// Pure rules of choosing a booking's time among the provider's free slots (issue 12, item 3): the
// durations offered, the windows asked of GET /api/services/{id}/slots, and the grouping of the
// slots by day in the viewer's time zone. Zone-aware through @date-fns/tz (no offset arithmetic);
// free of React and Lingui so they are unit-tested.

import { TZDate } from "@date-fns/tz"
import { format } from "date-fns/format"

// The server's own rules: slots every 15 minutes, lasting a multiple of 15; a booking of at most a week.
import { SLOT_STEP_MINUTES } from "../../src/modules/booking/availability/rules"
import { MAX_DURATION_MINUTES as SLOT_DURATION_MAX } from "../../src/modules/booking/rules"

export { SLOT_DURATION_MAX, SLOT_STEP_MINUTES }
/** Refusals that mean a chosen slot is no longer free: the form or dialog loads the slots anew and says so. */
export const SLOT_TAKEN = "BOOKING_SLOT_TAKEN"
export const OUTSIDE_AVAILABILITY = "OUTSIDE_AVAILABILITY"
/** The durations the form lists: every 15 minutes up to 12 h (and the service's own when longer). */
export const DURATION_CHOICES_MAX = 12 * 60
/** How far ahead the next free slots are looked for before the form says there is none. */
export const NEXT_SLOTS_DAYS = 60
/** The first, small window of that search; the rest is asked only when it holds no free slot. */
export const NEAR_SLOTS_DAYS = 7
/** How many of the next free slots the service page lists. */
export const NEXT_SLOTS_SHOWN = 6
/** The service page refreshes its next free slots every minute while visible. */
export const SLOTS_REFRESH_MS = 60_000
/** How far ahead a booking may start (the server's one-year horizon): the last month the picker offers. */
export const HORIZON_MONTHS = 12

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

export interface Slot {
  readonly startTime: string
}

export interface SlotWindow {
  readonly from: string
  readonly to: string
}

/** The slot duration for a service's duration: rounded up to 15 minutes, within 15 minutes..7 days. */
export const slotDuration = (serviceMinutes: number): number => {
  if (!Number.isFinite(serviceMinutes) || serviceMinutes <= SLOT_STEP_MINUTES) return SLOT_STEP_MINUTES
  const rounded = Math.ceil(serviceMinutes / SLOT_STEP_MINUTES) * SLOT_STEP_MINUTES
  return Math.min(rounded, SLOT_DURATION_MAX)
}

/** The durations the form offers: 15 min to 12 h by 15 min, plus `current` when it is longer. */
export const durationChoices = (current: number): ReadonlyArray<number> => {
  const choices = Array.from({ length: DURATION_CHOICES_MAX / SLOT_STEP_MINUTES }, (_, i) => (i + 1) * SLOT_STEP_MINUTES)
  return current > DURATION_CHOICES_MAX ? [...choices, current] : choices
}

/** The end of a slot of `minutes` starting at `startTime` (an ISO instant). */
export const endTimeOf = (startTime: string, minutes: number) => new Date(Date.parse(startTime) + minutes * MINUTE).toISOString()

/** The day ("2026-11-30") an instant falls on in `zone`. */
export const dayKey = (instant: string | number | Date, zone: string) =>
  format(new TZDate(typeof instant === "string" ? Date.parse(instant) : new Date(instant).getTime(), zone), "yyyy-MM-dd")

/** The month ("2026-11") an instant falls in, in `zone`. */
export const monthKey = (instant: string | number | Date, zone: string) =>
  format(new TZDate(typeof instant === "string" ? Date.parse(instant) : new Date(instant).getTime(), zone), "yyyy-MM")

/** Midnight of the first day of the month of `instant`, in `zone`. */
export const monthStart = (instant: string | number | Date, zone: string): TZDate => {
  const at = new TZDate(typeof instant === "string" ? Date.parse(instant) : new Date(instant).getTime(), zone)
  return new TZDate(at.getFullYear(), at.getMonth(), 1, zone)
}

/** Midnight of the day ("2026-11-30") in `zone`. */
export const dayStart = (day: string, zone: string): TZDate => {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number]
  return new TZDate(year, month - 1, date, zone)
}

/**
 * The window the picker asks for a month (its first day's midnight to the next month's, in `zone`),
 * starting no earlier than `now`; undefined for a month already over.
 */
export const monthWindow = (month: string | number | Date, zone: string, now: Date): SlotWindow | undefined => {
  const start = monthStart(month, zone)
  const end = new TZDate(start.getFullYear(), start.getMonth() + 1, 1, zone)
  if (end.getTime() <= now.getTime()) return undefined
  const from = Math.max(start.getTime(), now.getTime())
  return { from: new Date(from).toISOString(), to: new Date(end.getTime()).toISOString() }
}

/** The two windows of the next-free-slots search: the next 7 days, then the rest of the next 60. */
export const nextSlotWindows = (now: Date): readonly [SlotWindow, SlotWindow] => {
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString()
  return [
    { from: at(0), to: at(NEAR_SLOTS_DAYS) },
    { from: at(NEAR_SLOTS_DAYS), to: at(NEXT_SLOTS_DAYS) }
  ]
}

/** The slots by the day (in `zone`) they start on, each day's in time order. */
export const slotsByDay = <S extends Slot>(slots: ReadonlyArray<S>, zone: string): ReadonlyMap<string, ReadonlyArray<S>> => {
  const days = new Map<string, Array<S>>()
  const sorted = [...slots].sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime))
  for (const slot of sorted) {
    const key = dayKey(slot.startTime, zone)
    const day = days.get(key)
    if (day) day.push(slot)
    else days.set(key, [slot])
  }
  return days
}

/** The slots still ahead of `now` (an answer kept a while may hold some that have started). */
export const upcoming = <S extends Slot>(slots: ReadonlyArray<S>, now: Date): ReadonlyArray<S> =>
  slots.filter((slot) => Date.parse(slot.startTime) > now.getTime())

/** The month the picker may reach last: the one-year horizon's, in `zone`. */
export const lastMonth = (now: Date, zone: string): TZDate => {
  const start = monthStart(now, zone)
  return new TZDate(start.getFullYear(), start.getMonth() + HORIZON_MONTHS, 1, zone)
}
