import { Effect, Layer, Schema } from "effect"
import { now as currentTime } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import { JobQueue } from "../../platform/jobs"
import { withUnsubscribeFooter } from "./domain"
import {
  DigestRepository,
  Mailer,
  MailTransport,
  type OutgoingMail,
  PreferenceRepository,
  type RawMail,
  type Recipient,
  type Suppression,
  UnsubscribeTokens
} from "./ports"
import { decideDelivery, isEssential, MailKinds } from "./preferences"

/** Mails held back by quiet hours: durable jobs that start when the window ends. */
export const DEFERRED_MAIL_QUEUE = "mail-deferred"

/** The digest pass: every 15 minutes, so 08:00 falls on a tick in every zone (offsets are in quarter hours). */
export const DIGEST_QUEUE = "notification-digests"
export const DIGEST_CRON = "*/15 * * * *"

/** A mail's attachment as a job carries it (deferred mails, SMTP deliveries). */
export const MailAttachmentSchema = Schema.Struct({
  filename: Schema.String,
  contentType: Schema.String,
  content: Schema.String,
  encoding: Schema.optional(Schema.Literal("base64"))
})

export const DeferredMailJob = Schema.Struct({
  to: Schema.String,
  subject: Schema.String,
  text: Schema.String,
  html: Schema.String,
  kind: Schema.Literal(...MailKinds),
  digest: Schema.optional(Schema.Struct({ body: Schema.String, link: Schema.String })),
  attachments: Schema.optional(Schema.Array(MailAttachmentSchema)),
  expiresAt: Schema.optional(Schema.Date)
})

/** The link of the one-click unsubscribe, signed for one account. */
export const unsubscribeLinkOf = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, "")}/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`

const rawOf = (mail: OutgoingMail): RawMail => ({
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  ...(mail.attachments && mail.attachments.length > 0 ? { attachments: mail.attachments } : {})
})

/**
 * The Mailer every module sends through: it decides per mail, in the caller's transaction, from the
 * recipient's preferences (one read for the whole batch, none when every mail is essential). Mails
 * that go out now get the unsubscribe footer when they are not essential; held-back ones become a
 * delayed job, a digest item, or a suppression record.
 */
export const PreferenceAwareMailerLive = Layer.effect(
  Mailer,
  Effect.gen(function* () {
    const transport = yield* MailTransport
    const preferences = yield* PreferenceRepository
    const digests = yield* DigestRepository
    const jobs = yield* JobQueue
    const tokens = yield* UnsubscribeTokens
    const config = yield* AppConfig
    const footed = (mail: OutgoingMail, recipient: Recipient) =>
      withUnsubscribeFooter(rawOf(mail), recipient.language, unsubscribeLinkOf(config.publicUrl, tokens.sign(recipient.userId)))

    const sendAll = (mails: ReadonlyArray<OutgoingMail>) =>
      Effect.gen(function* () {
        if (mails.length === 0) return
        const optional = mails.filter((mail) => !isEssential(mail.kind))
        const recipients = optional.length === 0 ? [] : yield* preferences.recipients(optional.map((mail) => mail.to))
        const byEmail = new Map(recipients.map((r) => [r.email.toLowerCase(), r]))
        const at = yield* currentTime
        const now: Array<RawMail> = []
        const suppressed: Array<Suppression> = []
        for (const mail of mails) {
          const recipient = isEssential(mail.kind) ? undefined : byEmail.get(mail.to.toLowerCase())
          const decision = decideDelivery(mail.kind, recipient?.preferences ?? null, at, mail.expiresAt)
          if (recipient === undefined || decision._tag === "Send") {
            now.push(recipient === undefined ? rawOf(mail) : footed(mail, recipient))
          } else if (decision._tag === "Suppress") {
            suppressed.push({
              userId: recipient.userId,
              recipient: mail.to,
              kind: mail.kind,
              subject: mail.subject,
              reason: decision.reason
            })
          } else if (decision._tag === "Defer") {
            yield* jobs.send(DEFERRED_MAIL_QUEUE, Schema.encodeSync(DeferredMailJob)(mail), {
              startAfterSeconds: (decision.until.getTime() - at.getTime()) / 1000,
              retryLimit: 3,
              retryDelaySeconds: 60,
              retryBackoff: true
            })
          } else {
            yield* digests.add({
              userId: recipient.userId,
              kind: mail.kind,
              subject: mail.subject,
              body: mail.digest?.body ?? "",
              link: mail.digest?.link ?? config.publicUrl,
              createdAt: at
            })
          }
        }
        if (now.length > 0) yield* transport.sendAll(now)
        if (suppressed.length > 0) {
          yield* preferences.recordSuppressed(suppressed)
          yield* Effect.logInfo(
            `mail: ${suppressed.length} suppressed by the recipients' preferences`,
            suppressed.map((s) => `${s.kind} (${s.reason})`)
          )
        }
      })
    return Mailer.of({ send: (mail) => sendAll([mail]), sendAll })
  })
)
