import { Context, Effect, Either, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import { invalid, issue, type ValidationFailed } from "../../platform/errors"
import { type Language, type MessageKey, translate } from "../../platform/messages"
import { Transactional } from "../../platform/transaction"
import { composeMail, digestMail, withUnsubscribeFooter } from "./domain"
import { unsubscribeLinkOf } from "./delivery"
import { DigestRepository, MailTransport, PreferenceRepository, UnsubscribeTokens } from "./ports"
import {
  applyPreferencesPatch,
  defaultPreferences,
  digestCutoff,
  type NotificationPreferences,
  type PreferencesPatch,
  unsubscribed
} from "./preferences"

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

export interface DigestRun {
  /** Digest mails sent. */
  readonly digests: number
  /** Items they listed. */
  readonly items: number
  /** Items dropped because their recipient turned notifications off since. */
  readonly suppressed: number
}

/** The address of an unsubscribe request, normalised, or the per-field problem (pure: checked before any work). */
export const unsubscribeAddress = (email: unknown): Either.Either<string, ValidationFailed> => {
  const address = typeof email === "string" ? email.trim().toLowerCase() : ""
  if (address === "") return Either.left(invalid([issue("email", "validation.required")]))
  if (address.length > 254 || !EMAIL.test(address)) return Either.left(invalid([issue("email", "validation.email")]))
  return Either.right(address)
}

/** Notification preferences, the unsubscribe paths and the digest pass. */
export class NotificationSettings extends Context.Tag("notifications/NotificationSettings")<
  NotificationSettings,
  {
    readonly get: (userId: string) => Effect.Effect<NotificationPreferences>
    readonly update: (userId: string, patch: PreferencesPatch) => Effect.Effect<NotificationPreferences, ValidationFailed>
    /**
     * Someone asks, without signing in, to stop the mails of an address: the account of that address,
     * if there is one, is mailed the signed one-click link to confirm (nobody turns off someone else's
     * mails). Nothing tells whether the account exists.
     */
    readonly requestUnsubscribe: (email: unknown) => Effect.Effect<void, ValidationFailed>
    /** Turns every notification mail off for this account (the signed-in caller's own). */
    readonly unsubscribeAccount: (userId: string) => Effect.Effect<void>
    /** The one-click link: the language of the account it turned off, or none for a forged token. */
    readonly unsubscribeByToken: (token: string) => Effect.Effect<Option.Option<Language>>
    /** Sends every digest due now (each item once, even with several workers). */
    readonly sendDueDigests: Effect.Effect<DigestRun>
    /** Recipients and items waiting for a digest, due now or later (the CLI's report). */
    readonly pendingDigests: Effect.Effect<{ readonly recipients: number; readonly items: number; readonly dueItems: number }>
  }
>() {}

export const NotificationSettingsLive = Layer.effect(
  NotificationSettings,
  Effect.gen(function* () {
    const preferences = yield* PreferenceRepository
    const digests = yield* DigestRepository
    const transport = yield* MailTransport
    const tokens = yield* UnsubscribeTokens
    const tx = yield* Transactional
    const config = yield* AppConfig
    const current = (userId: string) =>
      Effect.map(
        preferences.find(userId),
        Option.getOrElse(() => defaultPreferences)
      )
    const turnOff = (userId: string) => Effect.flatMap(current(userId), (p) => preferences.save(userId, unsubscribed(p)))
    const home = config.publicUrl.replace(/\/+$/, "")

    const sendDueDigests = Effect.gen(function* () {
      const at = yield* now
      const run = { digests: 0, items: 0, suppressed: 0 }
      for (const recipient of yield* digests.pendingRecipients()) {
        const prefs = recipient.preferences
        if (!prefs.emailNotifications || prefs.emailFrequency === "never") {
          // Turned off since the items were queued: they are recorded as suppressed, not sent.
          const dropped = yield* tx.run(
            Effect.gen(function* () {
              const items = yield* digests.claim(recipient.userId, new Date(at.getTime() + 1), at)
              yield* preferences.recordSuppressed(
                items.map((item) => ({
                  userId: recipient.userId,
                  recipient: recipient.email,
                  kind: item.kind,
                  subject: item.subject,
                  reason: prefs.emailNotifications ? ("never" as const) : ("disabled" as const)
                }))
              )
              return items.length
            })
          )
          run.suppressed += dropped
          continue
        }
        const cutoff = digestCutoff(prefs, at)
        if (cutoff === null) continue
        const listed = yield* tx.run(
          Effect.gen(function* () {
            const items = yield* digests.claim(recipient.userId, cutoff, at)
            if (items.length === 0) return 0
            const mail = digestMail(
              { email: recipient.email, firstName: recipient.firstName, preferredLanguage: recipient.language },
              items,
              { home, settings: `${home}/settings` },
              prefs.timeZone,
              config.siteName
            )
            yield* transport.send(withUnsubscribeFooter(mail, recipient.language, unsubscribeLinkOf(home, tokens.sign(recipient.userId))))
            return items.length
          })
        )
        if (listed > 0) {
          run.digests += 1
          run.items += listed
        }
      }
      if (run.digests > 0 || run.suppressed > 0)
        yield* Effect.logInfo(`digests: ${run.digests} sent (${run.items} items), ${run.suppressed} items suppressed`)
      return run
    })

    return NotificationSettings.of({
      get: current,
      update: (userId, patch) =>
        Effect.gen(function* () {
          const next = applyPreferencesPatch(yield* current(userId), patch)
          if (Either.isLeft(next)) return yield* next.left
          yield* preferences.save(userId, next.right)
          return next.right
        }),
      requestUnsubscribe: (email) =>
        Effect.gen(function* () {
          const address = yield* unsubscribeAddress(email)
          const [recipient] = yield* preferences.recipients([address])
          if (!recipient) return
          const t = (key: MessageKey) => translate(recipient.language, key, { firstName: recipient.firstName })
          // Essential (asked for by the recipient): straight to the transport, whatever the preferences.
          yield* transport.send(
            composeMail(
              "unsubscribe-confirmation",
              { email: recipient.email, firstName: recipient.firstName, preferredLanguage: recipient.language },
              t("mail.unsubscribeConfirm.subject"),
              [t("mail.unsubscribeConfirm.body")],
              { label: t("mail.unsubscribeConfirm.action"), link: unsubscribeLinkOf(home, tokens.sign(recipient.userId)) },
              config.siteName
            )
          )
        }),
      unsubscribeAccount: turnOff,
      unsubscribeByToken: (token) =>
        Effect.gen(function* () {
          const userId = tokens.verify(token)
          if (Option.isNone(userId)) return Option.none()
          const recipient = yield* preferences.recipientById(userId.value)
          if (Option.isNone(recipient)) return Option.none()
          yield* turnOff(recipient.value.userId)
          return Option.some(recipient.value.language)
        }),
      sendDueDigests,
      pendingDigests: Effect.gen(function* () {
        const at = yield* now
        let items = 0
        let dueItems = 0
        const recipients = yield* digests.pendingRecipients()
        for (const recipient of recipients) {
          const pending = yield* digests.pending(recipient.userId)
          const cutoff = digestCutoff(recipient.preferences, at)
          items += pending.length
          dueItems += cutoff === null ? 0 : pending.filter((item) => item.createdAt.getTime() < cutoff.getTime()).length
        }
        return { recipients: recipients.length, items, dueItems }
      })
    })
  })
)
