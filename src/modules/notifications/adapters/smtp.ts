import { Effect, Layer, Redacted, Schema } from "effect"
import nodemailer from "nodemailer"
import { AppConfig } from "../../../platform/config"
import { JobQueue } from "../../../platform/jobs"
import { MailAttachmentSchema } from "../delivery"
import { MailTransport, type RawMail } from "../ports"

/** Mails waiting for the SMTP server: durable jobs in the database (pg-boss). */
export const MAIL_QUEUE = "mail-delivery"

/** About a day and a half of attempts while the SMTP server refuses or is unreachable: 30 s, 1 min, 2 min... */
const DELIVERY_RETRIES = { retryLimit: 12, retryDelaySeconds: 30, retryBackoff: true } as const

const MailJob = Schema.Struct({
  to: Schema.String,
  subject: Schema.String,
  text: Schema.String,
  html: Schema.String,
  attachments: Schema.optional(Schema.Array(MailAttachmentSchema))
})

/**
 * SMTP mode (SMTP_URL set): sending a mail queues its delivery in the caller's transaction, so a mail
 * goes out only if the action that sent it commits, and no action waits on the SMTP server (or holds
 * its locks while it answers). The server's delivery worker (SmtpDeliveryLive) hands each one to
 * nodemailer and retries with backoff; a mail the server never accepts stays as a failed job.
 */
export const QueuedTransportLive = Layer.effect(
  MailTransport,
  Effect.map(JobQueue, (jobs) => {
    const send = (mail: RawMail) =>
      jobs.send(
        MAIL_QUEUE,
        {
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.attachments && mail.attachments.length > 0 ? { attachments: mail.attachments } : {})
        },
        DELIVERY_RETRIES
      )
    return { send, sendAll: (mails) => Effect.forEach(mails, send, { discard: true }) }
  })
)

/** The delivery worker, in the server process while it runs: queued mails through nodemailer. */
export const SmtpDeliveryLive = (smtpUrl: Redacted.Redacted) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const jobs = yield* JobQueue
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() => nodemailer.createTransport(Redacted.value(smtpUrl))),
        (transport) => Effect.sync(() => transport.close())
      )
      yield* jobs.work(MAIL_QUEUE, (data) =>
        Effect.flatMap(Schema.decodeUnknown(MailJob)(data), (mail) =>
          Effect.tryPromise(() =>
            transport.sendMail({
              from: config.mailFrom,
              to: mail.to,
              subject: mail.subject,
              text: mail.text,
              html: mail.html,
              attachments: (mail.attachments ?? []).map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: a.content,
                ...(a.encoding ? { encoding: a.encoding } : {})
              }))
            })
          )
        )
      )
    })
  )
