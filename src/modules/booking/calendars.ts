import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import { type Forbidden, NotFound } from "../../platform/errors"
import { translate } from "../../platform/messages"
import { Transactional } from "../../platform/transaction"
import { type Actor, requireRole, UserRepository } from "../identity"
import { Mailer } from "../notifications"
import type { BookingStatus } from "./domain"
import { bookingsCalendar } from "./ics"
import { reminderMail } from "./mails"
import { BookingRepository, CalendarFeedRepository, CalendarFeedTokens, ReminderLog } from "./ports"
import { dueReminder, LONGEST_REMINDER_LEAD_MS } from "./reminders"

// Time outside the app: reminder mails before confirmed bookings, and the providers' private
// calendar feeds (iCalendar, to subscribe from any calendar application).

const DAY = 24 * 60 * 60 * 1000
/** Bookings a reminder pass looks at, at most (the next tick takes the rest). */
export const REMINDER_BATCH = 200
/** Reminders are looked for this often (a pg-boss cron tick, once across processes). */
export const REMINDER_CRON = "* * * * *"
/** The feed lists bookings that ended at most this long ago, and every later one. */
export const FEED_PAST_DAYS = 30
/** ... up to this far ahead (bookings are taken at most a year ahead). */
const FEED_FUTURE_DAYS = 400
/** Confirmed bookings, and confirmed bookings under way (started, or rendered and not yet validated). */
export const FEED_STATUSES: ReadonlyArray<BookingStatus> = ["CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED"]
/** The tokens this adapter makes: 32 random bytes in base64url. Anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{22,100}$/

export class BookingReminders extends Context.Tag("booking/BookingReminders")<
  BookingReminders,
  {
    /**
     * Sends every reminder due at the clock's now and not yet sent for the booking's current start,
     * to both people, each recorded in the transaction of its mails (once, however many workers);
     * answers how many bookings were reminded.
     */
    readonly sendDue: Effect.Effect<number>
  }
>() {}

export const BookingRemindersLive = Layer.effect(
  BookingReminders,
  Effect.gen(function* () {
    const bookings = yield* BookingRepository
    const log = yield* ReminderLog
    const mailer = yield* Mailer
    const tx = yield* Transactional
    const config = yield* AppConfig

    /** One booking's reminder under its row lock: a cancellation or a move committed meanwhile is seen. */
    const remind = (id: string, at: Date) =>
      tx.run(
        Effect.gen(function* () {
          const locked = yield* bookings.lock(id)
          if (Option.isNone(locked) || locked.value.status !== "CONFIRMED") return false
          const booking = locked.value
          const kind = dueReminder(booking.startTime, at)
          if (kind === undefined) return false
          if (!(yield* log.record(booking.id, kind, booking.startTime))) return false
          const detail = yield* bookings.findById(booking.id)
          if (Option.isNone(detail)) return false
          const d = detail.value
          yield* mailer.sendAll([reminderMail(kind, d.client, "client", d, config), reminderMail(kind, d.provider, "provider", d, config)])
          return true
        })
      )

    const sendDue = Effect.gen(function* () {
      const at = yield* now
      const candidates = yield* log.candidates(at, LONGEST_REMINDER_LEAD_MS, REMINDER_BATCH)
      let sent = 0
      for (const candidate of candidates) {
        // One booking's failure does not hold back the others; the next tick tries it again.
        const done = yield* remind(candidate.id, at).pipe(
          Effect.catchAllCause((cause) => Effect.as(Effect.logError(`booking ${candidate.id}: reminder failed`, cause), false))
        )
        if (done) sent += 1
      }
      return sent
    })
    return { sendDue }
  })
)

export class CalendarFeeds extends Context.Tag("booking/CalendarFeeds")<
  CalendarFeeds,
  {
    /** The provider's private feed URL, made on the first call. */
    readonly mine: (actor: Actor) => Effect.Effect<{ readonly url: string }, Forbidden>
    /** A new URL; the previous one stops working at once. */
    readonly regenerate: (actor: Actor) => Effect.Effect<{ readonly url: string }, Forbidden>
    /** The feed of a token (an iCalendar document), or 404 for a token of no feed. */
    readonly feed: (token: string) => Effect.Effect<string, NotFound>
  }
>() {}

export const CalendarFeedNotFound = new NotFound({ code: "CALENDAR_FEED_NOT_FOUND", key: "booking.calendarFeedNotFound" })

export const CalendarFeedsLive = Layer.effect(
  CalendarFeeds,
  Effect.gen(function* () {
    const bookings = yield* BookingRepository
    const feeds = yield* CalendarFeedRepository
    const tokens = yield* CalendarFeedTokens
    const users = yield* UserRepository
    const config = yield* AppConfig
    const base = config.publicUrl.replace(/\/+$/, "")
    const urlOf = (providerId: string, nonce: string) => ({ url: `${base}/api/calendar/${tokens.tokenOf(providerId, nonce)}.ics` })

    return {
      mine: (actor) =>
        Effect.flatMap(requireRole(actor, "PROVIDER"), () =>
          Effect.map(feeds.nonceOf(actor.id, tokens.newKey(actor.id)), (nonce) => urlOf(actor.id, nonce))
        ),
      regenerate: (actor) =>
        Effect.flatMap(requireRole(actor, "PROVIDER"), () => {
          const key = tokens.newKey(actor.id)
          return Effect.as(feeds.replace(actor.id, key), urlOf(actor.id, key.nonce))
        }),
      feed: (token) =>
        Effect.gen(function* () {
          if (!TOKEN.test(token)) return yield* CalendarFeedNotFound
          const owner = yield* feeds.providerOf(tokens.hashOf(token))
          if (Option.isNone(owner)) return yield* CalendarFeedNotFound
          const at = yield* now
          const found = yield* bookings.calendar(
            owner.value,
            new Date(at.getTime() - FEED_PAST_DAYS * DAY),
            new Date(at.getTime() + FEED_FUTURE_DAYS * DAY)
          )
          const provider = yield* users.findById(owner.value)
          const language = Option.match(provider, { onNone: () => "fr" as const, onSome: (u) => u.preferredLanguage })
          return bookingsCalendar(
            found.filter((b) => FEED_STATUSES.includes(b.status)),
            { name: translate(language, "mail.booking.calendarFeed"), link: `${base}/provider/calendar` }
          )
        })
    }
  })
)
