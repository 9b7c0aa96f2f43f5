import { Either } from "effect"
import { type FieldIssue, invalid, issue, type ValidationFailed } from "../../platform/errors"
import { EmailFrequencies, type EmailFrequency } from "./rules"

/**
 * Notification preferences and the pure rules of delivery: which mails may be held back, quiet
 * hours in the recipient's time zone (a window may cross midnight), and when digests fall due.
 */

export { EmailFrequencies, type EmailFrequency } from "./rules"

export interface NotificationPreferences {
  readonly emailNotifications: boolean
  readonly emailFrequency: EmailFrequency
  readonly quietHoursEnabled: boolean
  /** "HH:MM", 24-hour, in `timeZone`. */
  readonly quietHoursStart: string
  readonly quietHoursEnd: string
  /** IANA time zone the quiet hours and digest times are read in: the account's own, never stored here. */
  readonly timeZone: string
}

/** What an account chooses; its zone is the account's (users.time_zone, the one zone it has: issue 23 item 1). */
export type StoredPreferences = Omit<NotificationPreferences, "timeZone">

/** Spec section 9: quiet hours 22:00 to 08:00, frequency instant. */
export const defaultPreferences: NotificationPreferences = {
  emailNotifications: true,
  emailFrequency: "instant",
  quietHoursEnabled: false,
  quietHoursStart: "22:00",
  quietHoursEnd: "08:00",
  timeZone: "Europe/Paris"
}

/** Everything off: the complete unsubscribe. */
export const unsubscribed = (current: NotificationPreferences): NotificationPreferences => ({
  ...current,
  emailNotifications: false,
  emailFrequency: "never"
})

// ---- Mail kinds --------------------------------------------------------------------------------

/**
 * Every kind of mail the product sends. Essential ones (account security, legal notices, the
 * contact form to support) always go out at once; the others follow the recipient's preferences.
 */
export const MailKinds = [
  "email-verification",
  "password-reset",
  "password-changed",
  "email-change",
  "account-security",
  "data-export",
  "unsubscribe-confirmation",
  "legal",
  "contact",
  "booking",
  "booking-reminder",
  "receipt",
  "application-decision",
  "message",
  "digest"
] as const
export type MailKind = (typeof MailKinds)[number]

const ESSENTIAL: ReadonlySet<MailKind> = new Set<MailKind>([
  "email-verification",
  "password-reset",
  "password-changed",
  "email-change",
  "account-security",
  "data-export",
  "unsubscribe-confirmation",
  "legal",
  "contact",
  // A payment receipt is a record of money taken: at once, with its PDF, never held for a digest.
  "receipt"
])

export const isEssential = (kind: MailKind): boolean => ESSENTIAL.has(kind)

// ---- Validation --------------------------------------------------------------------------------

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Minutes since midnight of an "HH:MM" time, or undefined when it is not one. */
export const parseClock = (text: string): number | undefined => {
  const match = CLOCK.exec(text)
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined
}

const zoneChecks = new Map<string, boolean>()
/** An IANA zone name Intl knows (`Europe/Paris`, `UTC`); cached, the answer never changes. */
export const isValidTimeZone = (zone: string): boolean => {
  if (zone.length === 0 || zone.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(zone)) return false
  let known = zoneChecks.get(zone)
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone })
      known = true
    } catch {
      known = false
    }
    if (zoneChecks.size < 1000) zoneChecks.set(zone, known)
  }
  return known
}

export interface PreferencesPatch {
  readonly emailNotifications?: unknown
  readonly emailFrequency?: unknown
  readonly quietHoursEnabled?: unknown
  readonly quietHoursStart?: unknown
  readonly quietHoursEnd?: unknown
  readonly timeZone?: unknown
}

/** Applies a full or partial change to the current preferences, or answers per-field issues. */
export const applyPreferencesPatch = (
  current: NotificationPreferences,
  patch: PreferencesPatch
): Either.Either<NotificationPreferences, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const next = { ...current }
  for (const field of ["emailNotifications", "quietHoursEnabled"] as const) {
    const value = patch[field]
    if (value === undefined) continue
    if (typeof value === "boolean") next[field] = value
    else issues.push(issue(field, "validation.boolean"))
  }
  if (patch.emailFrequency !== undefined) {
    if ((EmailFrequencies as ReadonlyArray<unknown>).includes(patch.emailFrequency))
      next.emailFrequency = patch.emailFrequency as EmailFrequency
    else issues.push(issue("emailFrequency", "validation.emailFrequency"))
  }
  for (const field of ["quietHoursStart", "quietHoursEnd"] as const) {
    const value = patch[field]
    if (value === undefined) continue
    if (typeof value === "string" && parseClock(value) !== undefined) next[field] = value
    else issues.push(issue(field, "validation.clockTime"))
  }
  // The zone is the account's, changed with the account: sending another one is refused, not ignored.
  if (patch.timeZone !== undefined && patch.timeZone !== current.timeZone) {
    const known = typeof patch.timeZone === "string" && isValidTimeZone(patch.timeZone)
    issues.push(issue("timeZone", known ? "validation.zoneOfAccount" : "validation.timeZone"))
  }
  const badTimes = issues.some((i) => i.field === "quietHoursStart" || i.field === "quietHoursEnd")
  if (!badTimes && next.quietHoursStart === next.quietHoursEnd) issues.push(issue("quietHoursEnd", "validation.quietHoursEmpty"))
  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right(next)
}

// ---- Time zones --------------------------------------------------------------------------------

const MINUTE = 60_000
const DAY_MINUTES = 1440
const floorMod = (a: number, n: number) => ((a % n) + n) % n

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterOf = (zone: string) => {
  let format = formatters.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(zone, format)
  }
  return format
}

/** The wall clock in `zone` at an instant. */
export const wallClock = (zone: string, ms: number) => {
  const parts: Record<string, number> = {}
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! }
}

/** Minutes `zone` is ahead of UTC at an instant (Europe/Paris: 60 in winter, 120 in summer). */
export const offsetMinutes = (zone: string, ms: number): number => {
  const w = wallClock(zone, ms)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / MINUTE)
}

/** Minutes since the local midnight at an instant. */
export const localMinuteOfDay = (zone: string, ms: number): number => {
  const w = wallClock(zone, ms)
  return w.hour * 60 + w.minute
}

/** The instant a local date and time happen in `zone` (a time that does not exist, in a DST gap, lands after it). */
export const zonedInstant = (zone: string, year: number, month: number, day: number, minuteOfDay: number): number => {
  const guess = Date.UTC(year, month - 1, day, 0, minuteOfDay)
  const first = guess - offsetMinutes(zone, guess) * MINUTE
  const second = guess - offsetMinutes(zone, first) * MINUTE
  return Math.max(first, second)
}

// ---- Quiet hours -------------------------------------------------------------------------------

/** Whether a local minute of the day falls in [start, end), the window crossing midnight when start > end. */
export const inWindow = (minute: number, start: number, end: number): boolean =>
  start < end ? minute >= start && minute < end : minute >= start || minute < end

export const inQuietHours = (prefs: NotificationPreferences, at: Date): boolean => {
  if (!prefs.quietHoursEnabled) return false
  const start = parseClock(prefs.quietHoursStart)
  const end = parseClock(prefs.quietHoursEnd)
  if (start === undefined || end === undefined || start === end) return false
  return inWindow(localMinuteOfDay(prefs.timeZone, at.getTime()), start, end)
}

/** The first minute boundary after `from` where the zone's UTC offset differs from `offset`, before `limit`. */
const nextOffsetChange = (zone: string, from: number, offset: number, limit: number): number => {
  if (offsetMinutes(zone, limit) === offset) return limit
  let low = from
  let high = limit
  while (high - low > MINUTE) {
    const middle = Math.floor((low + high) / 2 / MINUTE) * MINUTE
    if (middle <= low) break
    if (offsetMinutes(zone, middle) === offset) low = middle
    else high = middle
  }
  return high
}

/**
 * When a mail that is not essential may go out: `at` itself outside quiet hours, else the first
 * instant the window is over (its end in the local time, or the end of a DST gap that skips it).
 * Within a span of constant UTC offset the local clock moves minute by minute, so the end is found
 * by arithmetic; an offset change (DST) starts a new span.
 */
export const nextSendTime = (prefs: NotificationPreferences, at: Date): Date => {
  if (!inQuietHours(prefs, at)) return at
  const end = parseClock(prefs.quietHoursEnd)!
  const zone = prefs.timeZone
  const limit = at.getTime() + 2 * DAY_MINUTES * MINUTE
  let from = at.getTime()
  while (from < limit) {
    if (!inQuietHours(prefs, new Date(from))) return new Date(from)
    const spanEnd = nextOffsetChange(zone, from, offsetMinutes(zone, from), limit)
    const wait = floorMod(end - localMinuteOfDay(zone, from), DAY_MINUTES)
    const candidate = Math.floor(from / MINUTE) * MINUTE + wait * MINUTE
    if (candidate < spanEnd) return new Date(candidate)
    from = spanEnd
  }
  return new Date(limit)
}

// ---- Digests -----------------------------------------------------------------------------------

/** Digests go out at 08:00 in the recipient's time zone: every day, or on Mondays. */
export const DIGEST_MINUTE_OF_DAY = 8 * 60

/** The most recent digest time at or before `at` (daily: 08:00; weekly: Monday 08:00), local to `zone`. */
export const lastDigestTime = (frequency: "daily" | "weekly", zone: string, at: Date): Date => {
  const w = wallClock(zone, at.getTime())
  // Day numbers of the local calendar, so DST never shifts a date.
  const weekday = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()
  let back = frequency === "weekly" ? floorMod(weekday - 1, 7) : 0
  for (;;) {
    const date = new Date(Date.UTC(w.year, w.month - 1, w.day - back))
    const candidate = zonedInstant(zone, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), DIGEST_MINUTE_OF_DAY)
    if (candidate <= at.getTime()) return new Date(candidate)
    back += frequency === "weekly" ? 7 : 1
  }
}

/** The first digest time strictly after `at`. */
export const nextDigestTime = (frequency: "daily" | "weekly", zone: string, at: Date): Date => {
  const last = lastDigestTime(frequency, zone, at)
  const w = wallClock(zone, last.getTime())
  const date = new Date(Date.UTC(w.year, w.month - 1, w.day + (frequency === "weekly" ? 7 : 1)))
  return new Date(zonedInstant(zone, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), DIGEST_MINUTE_OF_DAY))
}

/**
 * Pending digest items of one recipient created before this instant are due now; null: none are
 * (a weekly reader on Wednesday with nothing from before Monday). Instant readers (who switched
 * back) get everything at once; quiet hours hold a digest back until they end.
 */
export const digestCutoff = (prefs: NotificationPreferences, at: Date): Date | null => {
  if (inQuietHours(prefs, at)) return null
  if (prefs.emailFrequency === "daily" || prefs.emailFrequency === "weekly") return lastDigestTime(prefs.emailFrequency, prefs.timeZone, at)
  return at
}

// ---- Delivery ----------------------------------------------------------------------------------

export type Delivery =
  | { readonly _tag: "Send" }
  | { readonly _tag: "Suppress"; readonly reason: "never" | "disabled" | "expired" }
  | { readonly _tag: "Defer"; readonly until: Date }
  | { readonly _tag: "Digest" }

/**
 * What happens to one mail. `prefs` is null when the address belongs to no account (nothing to
 * honour). Essential mails always go at once; the others follow the preferences.
 */
export const decideDelivery = (kind: MailKind, prefs: NotificationPreferences | null, at: Date, expiresAt?: Date): Delivery => {
  if (prefs === null || isEssential(kind)) return { _tag: "Send" }
  if (!prefs.emailNotifications) return { _tag: "Suppress", reason: "disabled" }
  if (prefs.emailFrequency === "never") return { _tag: "Suppress", reason: "never" }
  // A mail with a use-by instant (a reminder before a booking) that would reach its reader only then
  // or later is not sent at all.
  const late = (when: Date) => expiresAt !== undefined && when.getTime() >= expiresAt.getTime()
  if (late(at)) return { _tag: "Suppress", reason: "expired" }
  if (prefs.emailFrequency === "daily" || prefs.emailFrequency === "weekly") {
    if (expiresAt === undefined) return { _tag: "Digest" }
    // The digest that would carry it: the next digest time, or later while quiet hours hold it.
    const digestAt = nextSendTime(prefs, nextDigestTime(prefs.emailFrequency, prefs.timeZone, at))
    return late(digestAt) ? { _tag: "Suppress", reason: "expired" } : { _tag: "Digest" }
  }
  const until = nextSendTime(prefs, at)
  if (until.getTime() <= at.getTime()) return { _tag: "Send" }
  return late(until) ? { _tag: "Suppress", reason: "expired" } : { _tag: "Defer", until }
}
