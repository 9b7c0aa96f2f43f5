import { it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { describe, expect } from "vitest"
import { Identity, UserRepository } from "../../src/modules/identity"
import { composeMail, Mailer, Notifications, NotificationSettings } from "../../src/modules/notifications"
import { PreferenceRepository, UnsubscribeTokens } from "../../src/modules/notifications/ports"
import { NotificationJobsLive } from "../../src/modules/notifications/jobs"
import { fr, translate } from "../../src/platform/messages"
import { inMemoryDomain, mailsTo, verifiedAccount } from "../support/domain"
import type { ServicesOf } from "../support/layers"
import { DEFAULT_PREFERENCES } from "./support"

/** The brand (SITE_NAME) mails are signed with: not the default, so nothing can say it by chance. */
const SITE_NAME = "Atelier Test"

/**
 * The domain on in-memory adapters with the notification workers running, on the test's clock set
 * to `start` first (moving a TestClock across decades would run every 15-minute digest tick between).
 */
const domain = () => Layer.provideMerge(NotificationJobsLive, inMemoryDomain({ publicUrl: "https://market.test", siteName: SITE_NAME }))
const withDomain = <A, E>(start: string, body: Effect.Effect<A, E, ServicesOf<ReturnType<typeof domain>>>) =>
  Effect.zipRight(TestClock.setTime(Date.parse(start)), body.pipe(Effect.provide(domain())))

const settle = Effect.repeatN(Effect.yieldNow(), 50)
const at = (iso: string) => TestClock.setTime(Date.parse(iso))

/** A registered, verified account and its mails other than the verification one. */
const person = Effect.gen(function* () {
  const { user, email } = yield* verifiedAccount()
  return { id: user.id, email }
})
/** A test on the domain from `start`, about one registered, verified person. */
const itForAPerson = <A, E>(
  name: string,
  start: string,
  body: (p: Effect.Effect.Success<typeof person>) => Effect.Effect<A, E, ServicesOf<ReturnType<typeof domain>>>
) => it.scoped(name, () => withDomain(start, Effect.flatMap(person, body)))
const notificationsTo = (email: string) =>
  Effect.map(mailsTo(email), (mails) => mails.filter((m) => m.subject !== fr["mail.verify.subject"]))

const bookingMail = (email: string, subject: string) =>
  composeMail(
    "booking",
    { email, firstName: "Camille", preferredLanguage: "fr" },
    subject,
    [`Détails de ${subject}`],
    { label: "Voir mes réservations", link: "https://market.test/bookings" },
    SITE_NAME
  )

const send = (email: string, subject: string) => Effect.flatMap(Mailer, (mailer) => mailer.send(bookingMail(email, subject)))
const setPreferences = (userId: string, patch: Record<string, unknown>) =>
  Effect.flatMap(NotificationSettings, (s) => s.update(userId, patch))

describe("delivery honouring the preferences (in-memory adapters, TestClock)", () => {
  itForAPerson("instant (the default): sent at once, with a signed unsubscribe link in the footer", "2026-06-10T10:00:00Z", (p) =>
    Effect.gen(function* () {
      yield* send(p.email, "Réservation demandée")
      const [mail] = yield* notificationsTo(p.email)
      expect(mail?.subject).toBe("Réservation demandée")
      const link = /https:\/\/market\.test\/api\/notifications\/unsubscribe\?token=(\S+)/.exec(mail!.text)
      expect(link).not.toBeNull()
      expect(mail!.html).toContain("/api/notifications/unsubscribe?token=")
      const tokens = yield* UnsubscribeTokens
      expect(tokens.verify(decodeURIComponent(link![1]!))).toEqual(Option.some(p.id))
    })
  )

  itForAPerson("instant during quiet hours (22:00-07:00 Paris): held back until 07:00 local, then sent once", "2026-06-10T21:00:00Z", (p) =>
    Effect.gen(function* () {
      // 23:00 in Paris (summer time)
      yield* setPreferences(p.id, { quietHoursEnabled: true, quietHoursStart: "22:00", quietHoursEnd: "07:00", timeZone: "Europe/Paris" })
      yield* send(p.email, "Nouvelle demande")
      yield* settle
      expect(yield* notificationsTo(p.email)).toEqual([])
      yield* TestClock.adjust(Duration.minutes(7 * 60 + 59))
      yield* settle
      expect(yield* notificationsTo(p.email)).toEqual([])
      yield* TestClock.adjust("1 minute") // 05:00 UTC, 07:00 in Paris
      yield* settle
      expect((yield* notificationsTo(p.email)).map((m) => m.subject)).toEqual(["Nouvelle demande"])
      yield* TestClock.adjust("1 day")
      yield* settle
      expect(yield* notificationsTo(p.email)).toHaveLength(1)
    })
  )

  itForAPerson("daily: several events become one digest mail at 08:00 local, each item listed once", "2026-06-10T10:00:00Z", (p) =>
    Effect.gen(function* () {
      yield* setPreferences(p.id, { emailFrequency: "daily", timeZone: "Europe/Paris" })
      for (const subject of ["Demande reçue", "Paiement autorisé", "Réservation confirmée"]) {
        yield* send(p.email, subject)
        yield* TestClock.adjust("1 hour")
      }
      yield* settle
      expect(yield* notificationsTo(p.email)).toEqual([])
      // The cron pass runs every 15 minutes: nothing before 08:00 in Paris (06:00 UTC) the next day.
      yield* TestClock.adjust(Duration.minutes(16 * 60 + 44)) // from 13:00 to 05:44 UTC
      yield* settle
      expect(yield* notificationsTo(p.email)).toEqual([])
      yield* TestClock.adjust("16 minutes")
      yield* settle
      const mails = yield* notificationsTo(p.email)
      expect(mails).toHaveLength(1)
      expect(mails[0]!.subject).toBe(translate("fr", "mail.digest.subject", { count: "3" }))
      const text = mails[0]!.text
      expect(
        ["Demande reçue", "Paiement autorisé", "Réservation confirmée"]
          .map((s) => text.indexOf(s))
          .every((i, n, all) => i > 0 && (n === 0 || i > all[n - 1]!))
      ).toBe(true)
      expect(text).toContain("Détails de Paiement autorisé")
      expect(text).toContain("/api/notifications/unsubscribe?token=")
      // Nothing is sent twice.
      yield* TestClock.adjust("2 days")
      yield* settle
      expect(yield* notificationsTo(p.email)).toHaveLength(1)
      expect((yield* (yield* NotificationSettings).sendDueDigests).digests).toBe(0)
    })
  )

  itForAPerson("weekly: the digest waits for Monday 08:00 local", "2026-06-10T10:00:00Z", (p) =>
    Effect.gen(function* () {
      // a Wednesday
      yield* Effect.flatMap(UserRepository, (users) => users.adoptTimeZone(p.id, "America/Montreal"))
      yield* setPreferences(p.id, { emailFrequency: "weekly" })
      yield* send(p.email, "Candidature acceptée")
      yield* at("2026-06-15T11:59:00Z") // Monday 07:59 in Montreal
      yield* settle
      expect(yield* notificationsTo(p.email)).toEqual([])
      expect(yield* (yield* NotificationSettings).pendingDigests).toEqual({ recipients: 1, items: 1, dueItems: 0 })
      yield* at("2026-06-15T12:00:00Z") // the cron pass of 08:00 sends it
      yield* settle
      expect((yield* notificationsTo(p.email)).map((m) => m.subject)).toEqual(["Votre résumé : 1 notification"])
      expect(yield* (yield* NotificationSettings).pendingDigests).toEqual({ recipients: 0, items: 0, dueItems: 0 })
    })
  )

  itForAPerson("never, or notifications off: not sent, recorded as suppressed", "2026-06-10T10:00:00Z", (never) =>
    Effect.gen(function* () {
      const off = yield* person
      yield* setPreferences(never.id, { emailFrequency: "never" })
      yield* setPreferences(off.id, { emailNotifications: false })
      yield* Effect.flatMap(Mailer, (m) => m.sendAll([bookingMail(never.email, "Annulée"), bookingMail(off.email, "Annulée")]))
      yield* TestClock.adjust("2 days")
      yield* settle
      expect(yield* notificationsTo(never.email)).toEqual([])
      expect(yield* notificationsTo(off.email)).toEqual([])
      const store = yield* PreferenceRepository
      expect(yield* store.suppressed(never.id)).toEqual([
        { userId: never.id, recipient: never.email, kind: "booking", subject: "Annulée", reason: "never" }
      ])
      expect((yield* store.suppressed(off.id)).map((s) => s.reason)).toEqual(["disabled"])
    })
  )

  itForAPerson(
    "items waiting for a digest are suppressed, not sent, when the reader turns notifications off",
    "2026-06-10T10:00:00Z",
    (p) =>
      Effect.gen(function* () {
        yield* setPreferences(p.id, { emailFrequency: "daily" })
        yield* send(p.email, "Message reçu")
        yield* setPreferences(p.id, { emailNotifications: false })
        yield* TestClock.adjust("1 day")
        yield* settle
        expect(yield* notificationsTo(p.email)).toEqual([])
        expect((yield* (yield* PreferenceRepository).suppressed(p.id)).map((s) => s.subject)).toEqual(["Message reçu"])
      })
  )

  itForAPerson("essential mails go out at once, in quiet hours and whatever the frequency", "2026-06-10T23:00:00Z", (p) =>
    Effect.gen(function* () {
      // 01:00 in Paris
      yield* setPreferences(p.id, {
        quietHoursEnabled: true,
        quietHoursStart: "22:00",
        quietHoursEnd: "07:00",
        emailFrequency: "never",
        emailNotifications: false
      })
      yield* (yield* Identity).forgotPassword(p.email)
      const mails = yield* notificationsTo(p.email)
      expect(mails.map((m) => m.subject)).toEqual([fr["mail.reset.subject"]])
      // Account security mails carry no unsubscribe link: they cannot be turned off.
      expect(mails[0]!.text).not.toContain("unsubscribe")
    })
  )
})

describe("preferences and unsubscribing (in-memory adapters)", () => {
  itForAPerson(
    "defaults until changed; a partial change keeps the other fields; bad values are refused per field",
    "2026-06-10T10:00:00Z",
    (p) =>
      Effect.gen(function* () {
        const settings = yield* NotificationSettings
        expect(yield* settings.get(p.id)).toEqual(DEFAULT_PREFERENCES)
        yield* settings.update(p.id, { emailFrequency: "weekly" })
        expect((yield* settings.update(p.id, { quietHoursEnabled: true })).emailFrequency).toBe("weekly")
        const failure = yield* Effect.flip(settings.update(p.id, { quietHoursStart: "08:00", quietHoursEnd: "08:00" }))
        expect(failure.details.map((d) => d.field)).toEqual(["quietHoursEnd"])
        expect((yield* settings.get(p.id)).quietHoursStart).toBe("22:00")
      })
  )

  itForAPerson(
    "unsubscribe by address: nothing turned off, the address's account mailed the signed link to confirm",
    "2026-06-10T10:00:00Z",
    (p) =>
      Effect.gen(function* () {
        const settings = yield* NotificationSettings
        const tokens = yield* UnsubscribeTokens
        yield* settings.requestUnsubscribe("nobody@example.com")
        yield* settings.requestUnsubscribe(p.email.toUpperCase())
        expect(yield* settings.get(p.id)).toMatchObject({ emailNotifications: true })
        const [confirmation] = yield* notificationsTo(p.email)
        expect(confirmation!.subject).toBe(fr["mail.unsubscribeConfirm.subject"])
        expect(confirmation!.text).toContain(`/api/notifications/unsubscribe?token=${encodeURIComponent(tokens.sign(p.id))}`)
        expect((yield* Effect.flip(settings.requestUnsubscribe("not an address"))).details.map((d) => d.key)).toEqual(["validation.email"])
        yield* settings.unsubscribeAccount(p.id)
        expect(yield* settings.get(p.id)).toMatchObject({ emailNotifications: false, emailFrequency: "never" })
      })
  )

  itForAPerson("the signed link turns the account off; a tampered one does nothing", "2026-06-10T10:00:00Z", (p) =>
    Effect.gen(function* () {
      const settings = yield* NotificationSettings
      const tokens = yield* UnsubscribeTokens
      const other = yield* person
      const token = tokens.sign(p.id)
      const forged = `${other.id}.${token.split(".")[1]}`
      expect(yield* settings.unsubscribeByToken(forged)).toEqual(Option.none())
      expect(yield* settings.unsubscribeByToken(`${token}x`)).toEqual(Option.none())
      expect((yield* settings.get(other.id)).emailNotifications).toBe(true)
      expect(yield* settings.unsubscribeByToken(token)).toEqual(Option.some("fr"))
      expect(yield* settings.get(p.id)).toMatchObject({ emailNotifications: false, emailFrequency: "never" })
    })
  )
})

describe("the brand's signature (SITE_NAME)", () => {
  it.scoped("every mail, text and HTML, in French and in English, ends with the configured name, never Marketplace", () =>
    withDomain(
      "2026-06-10T12:00:00Z",
      Effect.gen(function* () {
        const notifications = yield* Notifications
        for (const [language, signature] of [
          ["fr", "Atelier Test — Montréal"],
          ["en", "Atelier Test — Montreal"]
        ] as const) {
          const email = `signed.${language}@example.com`
          yield* notifications.sendEmailVerification({ email, firstName: "Camille", preferredLanguage: language }, "t0ken")
          const [mail] = yield* mailsTo(email)
          expect(mail!.text.endsWith(`\n-- \n${signature}\n`)).toBe(true)
          expect(mail!.html.endsWith(`<hr><p style="font-size:12px;color:#555">${signature}</p></body></html>`)).toBe(true)
          expect(`${mail!.text}${mail!.html}`).not.toContain("Marketplace")
        }
      })
    )
  )

  itForAPerson("a mail that may be turned off has its unsubscribe line after the signature", "2026-06-10T12:00:00Z", (p) =>
    Effect.gen(function* () {
      yield* send(p.email, "Réservation confirmée")
      const [mail] = yield* notificationsTo(p.email)
      expect(mail!.text).toMatch(
        /\n-- \nAtelier Test — Montréal\n[^\n]+: https:\/\/market\.test\/api\/notifications\/unsubscribe\?token=\S+\n$/
      )
    })
  )
})
