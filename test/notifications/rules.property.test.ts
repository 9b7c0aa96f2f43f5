import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  applyPreferencesPatch,
  decideDelivery,
  defaultPreferences,
  EmailFrequencies,
  inQuietHours,
  inWindow,
  isEssential,
  lastDigestTime,
  localMinuteOfDay,
  MailKinds,
  nextDigestTime,
  nextSendTime,
  type NotificationPreferences,
  wallClock
} from "../../src/modules/notifications/preferences"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const zones = ["Europe/Paris", "America/Montreal", "UTC", "Asia/Kolkata", "Australia/Adelaide", "America/Sao_Paulo"] as const
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

/** Instants from 2024 to 2030, with a bias towards the hours around Europe's DST changes. */
const instant = fc
  .oneof(
    fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 11, 31) }),
    fc
      .constantFrom(Date.UTC(2026, 2, 29), Date.UTC(2026, 9, 25), Date.UTC(2027, 2, 28), Date.UTC(2027, 9, 31))
      .chain((day) => fc.integer({ min: day - 30 * HOUR, max: day + 30 * HOUR }))
  )
  .map((ms) => new Date(ms))

const window = fc.tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 })).filter(([start, end]) => start !== end)

const quietPreferences = fc.record({ window, zone: fc.constantFrom(...zones) }).map(
  ({ window: [start, end], zone }): NotificationPreferences => ({
    ...defaultPreferences,
    quietHoursEnabled: true,
    quietHoursStart: clock(start),
    quietHoursEnd: clock(end),
    timeZone: zone
  })
)

const preferences = fc
  .record({
    quiet: quietPreferences,
    quietHoursEnabled: fc.boolean(),
    emailNotifications: fc.boolean(),
    emailFrequency: fc.constantFrom(...EmailFrequencies)
  })
  .map(({ quiet, ...rest }): NotificationPreferences => ({ ...quiet, ...rest }))

describe("quiet hours", () => {
  it("a minute is in the window exactly when it lies less than the window's length after its start (crossing midnight or not)", () => {
    fc.assert(
      fc.property(window, fc.integer({ min: 0, max: 1439 }), ([start, end], minute) => {
        const length = (end - start + 1440) % 1440
        expect(inWindow(minute, start, end)).toBe((minute - start + 1440) % 1440 < length)
      })
    )
  })

  it("22:00-07:00 holds 23:30 and 06:59, not 07:00 nor 21:59", () => {
    const [start, end] = [22 * 60, 7 * 60]
    expect([23 * 60 + 30, 6 * 60 + 59, 22 * 60, 0].map((m) => inWindow(m, start, end))).toEqual([true, true, true, true])
    expect([7 * 60, 21 * 60 + 59, 12 * 60].map((m) => inWindow(m, start, end))).toEqual([false, false, false])
  })

  it("the next send time is the first instant outside the window: never earlier, never in quiet hours, and quiet all the way until then", () => {
    fc.assert(
      fc.property(quietPreferences, instant, (prefs, at) => {
        const next = nextSendTime(prefs, at)
        expect(next.getTime()).toBeGreaterThanOrEqual(at.getTime())
        expect(inQuietHours(prefs, next)).toBe(false)
        // At most a day of quiet (plus an hour when the clocks go back).
        expect(next.getTime() - at.getTime()).toBeLessThanOrEqual(25 * HOUR)
        if (next.getTime() > at.getTime()) {
          expect(inQuietHours(prefs, at)).toBe(true)
          for (let t = Math.ceil(at.getTime() / MINUTE) * MINUTE; t < next.getTime(); t += MINUTE) {
            if (!inQuietHours(prefs, new Date(t)))
              throw new Error(`${new Date(t).toISOString()} is outside quiet hours before ${next.toISOString()}`)
          }
        } else expect(inQuietHours(prefs, at)).toBe(false)
      }),
      { numRuns: 150 }
    )
  })

  it("Europe/Paris, spring forward: a window ending at 02:30 (which does not exist that night) ends at 03:00 local", () => {
    const prefs = { ...defaultPreferences, quietHoursEnabled: true, quietHoursStart: "22:00", quietHoursEnd: "02:30" }
    // 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
    expect(nextSendTime(prefs, new Date("2026-03-28T23:00:00Z")).toISOString()).toBe("2026-03-29T01:00:00.000Z")
  })

  it("Europe/Paris, fall back: 22:00-07:00 from 23:00 CEST ends at 07:00 CET, nine hours later", () => {
    const prefs = { ...defaultPreferences, quietHoursEnabled: true, quietHoursStart: "22:00", quietHoursEnd: "07:00" }
    // 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00 UTC.
    expect(nextSendTime(prefs, new Date("2026-10-24T21:00:00Z")).toISOString()).toBe("2026-10-25T06:00:00.000Z")
  })

  it("a window whose start equals its end is refused; any other valid window is accepted", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }), (start, end) => {
        const result = applyPreferencesPatch(defaultPreferences, { quietHoursStart: clock(start), quietHoursEnd: clock(end) })
        if (start === end) {
          expect(Either.isLeft(result) && result.left.details.map((d) => [d.field, d.key])).toEqual([
            ["quietHoursEnd", "validation.quietHoursEmpty"]
          ])
        } else expect(Either.isRight(result)).toBe(true)
      })
    )
  })

  it("validation names each bad field, and a valid patch changes exactly the fields it names", () => {
    const value = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.integer(),
      fc.constant(null),
      fc.constantFrom("daily", "07:15", "Europe/Paris", "Mars/Olympus", "24:00", "7:00")
    )
    const patch = fc.record(
      {
        emailNotifications: value,
        emailFrequency: value,
        quietHoursEnabled: value,
        quietHoursStart: value,
        quietHoursEnd: value,
        timeZone: value
      },
      { requiredKeys: [] }
    )
    fc.assert(
      fc.property(patch, (p) => {
        const result = applyPreferencesPatch(defaultPreferences, p)
        if (Either.isRight(result)) {
          for (const [field, v] of Object.entries(p)) expect(result.right[field as keyof NotificationPreferences]).toBe(v)
          for (const field of Object.keys(defaultPreferences) as Array<keyof NotificationPreferences>) {
            if (!(field in p)) expect(result.right[field]).toBe(defaultPreferences[field])
          }
        } else {
          for (const d of result.left.details) expect(Object.keys(defaultPreferences)).toContain(d.field)
        }
      })
    )
    const bad = applyPreferencesPatch(defaultPreferences, { emailFrequency: "hourly", quietHoursStart: "25:00", timeZone: "Mars/Olympus" })
    expect(Either.isLeft(bad) && bad.left.details.map((d) => d.field).sort()).toEqual(["emailFrequency", "quietHoursStart", "timeZone"])
  })
})

describe("digest times", () => {
  it("the last digest time is at or before now, the next strictly after, both at 08:00 local (Mondays for weekly), a day or a week apart", () => {
    fc.assert(
      fc.property(fc.constantFrom("daily" as const, "weekly" as const), fc.constantFrom(...zones), instant, (frequency, zone, at) => {
        const last = lastDigestTime(frequency, zone, at)
        const next = nextDigestTime(frequency, zone, at)
        expect(last.getTime()).toBeLessThanOrEqual(at.getTime())
        expect(next.getTime()).toBeGreaterThan(at.getTime())
        for (const t of [last, next]) {
          expect(localMinuteOfDay(zone, t.getTime())).toBe(8 * 60)
          if (frequency === "weekly") {
            const w = wallClock(zone, t.getTime())
            expect(new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()).toBe(1)
          }
        }
        const span = frequency === "daily" ? 24 * HOUR : 7 * 24 * HOUR
        expect(Math.abs(next.getTime() - last.getTime() - span)).toBeLessThanOrEqual(HOUR)
      }),
      { numRuns: 200 }
    )
  })

  it("Europe/Paris: 08:00 is 07:00 UTC in winter and 06:00 UTC in summer; Monday 2026-03-30 is the weekly one after the change", () => {
    expect(nextDigestTime("daily", "Europe/Paris", new Date("2026-01-10T12:00:00Z")).toISOString()).toBe("2026-01-11T07:00:00.000Z")
    expect(nextDigestTime("daily", "Europe/Paris", new Date("2026-07-10T12:00:00Z")).toISOString()).toBe("2026-07-11T06:00:00.000Z")
    expect(nextDigestTime("weekly", "Europe/Paris", new Date("2026-03-25T12:00:00Z")).toISOString()).toBe("2026-03-30T06:00:00.000Z")
  })
})

describe("classification and delivery", () => {
  const kind = fc.constantFrom(...MailKinds)
  const maybePreferences = fc.option(preferences, { nil: null })

  it("essential mails (account security, the data export, legal, contact) are never suppressed, delayed or held for a digest", () => {
    expect(MailKinds.filter(isEssential).sort()).toEqual([
      "account-security",
      "contact",
      "data-export",
      "email-change",
      "email-verification",
      "legal",
      "password-changed",
      "password-reset",
      "receipt",
      "unsubscribe-confirmation"
    ])
    fc.assert(
      fc.property(kind.filter(isEssential), maybePreferences, instant, (k, prefs, at) => {
        expect(decideDelivery(k, prefs, at)).toEqual({ _tag: "Send" })
      })
    )
  })

  it("other mails follow the preferences: off or never suppress, daily/weekly go to the digest, instant waits for the end of quiet hours", () => {
    fc.assert(
      fc.property(
        kind.filter((k) => !isEssential(k)),
        preferences,
        instant,
        (k, prefs, at) => {
          const decision = decideDelivery(k, prefs, at)
          if (!prefs.emailNotifications) expect(decision).toEqual({ _tag: "Suppress", reason: "disabled" })
          else if (prefs.emailFrequency === "never") expect(decision).toEqual({ _tag: "Suppress", reason: "never" })
          else if (prefs.emailFrequency !== "instant") expect(decision).toEqual({ _tag: "Digest" })
          else if (inQuietHours(prefs, at)) {
            expect(decision._tag).toBe("Defer")
            if (decision._tag === "Defer") expect(decision.until).toEqual(nextSendTime(prefs, at))
          } else expect(decision).toEqual({ _tag: "Send" })
        }
      )
    )
  })

  it("a mail with a use-by instant (a reminder) is suppressed as expired exactly when it would reach its reader at or after it", () => {
    fc.assert(
      fc.property(
        kind.filter((k) => !isEssential(k)),
        preferences,
        instant,
        fc.integer({ min: -HOUR, max: 3 * 24 * HOUR }),
        (k, prefs, at, lead) => {
          const expiresAt = new Date(at.getTime() + lead)
          const plain = decideDelivery(k, prefs, at)
          const decision = decideDelivery(k, prefs, at, expiresAt)
          // When the mail would reach the reader without a use-by instant.
          const arrival =
            plain._tag === "Send"
              ? at
              : plain._tag === "Defer"
                ? plain.until
                : plain._tag === "Digest"
                  ? nextSendTime(prefs, nextDigestTime(prefs.emailFrequency as "daily" | "weekly", prefs.timeZone, at))
                  : undefined
          if (plain._tag === "Suppress") expect(decision).toEqual(plain)
          else if (arrival!.getTime() >= expiresAt.getTime()) expect(decision).toEqual({ _tag: "Suppress", reason: "expired" })
          else expect(decision).toEqual(plain)
        }
      )
    )
  })

  it("a mail to an address of no account goes out at once", () => {
    fc.assert(
      fc.property(kind, instant, (k, at) => {
        expect(decideDelivery(k, null, at)).toEqual({ _tag: "Send" })
      })
    )
  })
})
