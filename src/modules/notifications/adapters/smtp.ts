import { Effect, Layer, Redacted } from "effect"
import nodemailer from "nodemailer"
import { AppConfig } from "../../../platform/config"
import { Mailer, type OutgoingMail } from "../ports"

/** SMTP through nodemailer, used when SMTP_URL is set (smtp://user:pass@host:587 or smtps://...). */
export const SmtpMailerLive = (smtpUrl: Redacted.Redacted) =>
  Layer.effect(
    Mailer,
    Effect.map(AppConfig, (config) => {
      const transport = nodemailer.createTransport(Redacted.value(smtpUrl))
      const send = (mail: OutgoingMail) =>
        Effect.tryPromise(() =>
          transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
        ).pipe(
          Effect.retry({ times: 2 }),
          // A mail that cannot be delivered must not undo the user's action; it is logged for operators.
          Effect.catchAll((error) => Effect.logError("mail delivery failed", { to: mail.to, error: String(error) })),
          Effect.asVoid
        )
      return { send, sendAll: (mails) => Effect.forEach(mails, send, { discard: true }) }
    })
  )
