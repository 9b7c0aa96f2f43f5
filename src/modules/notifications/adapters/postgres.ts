import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { ContactRepository, Mailer, Outbox, type StoredMail } from "../ports"

/** The outbox transport: mails are rows, written in the caller's transaction. */
export const OutboxMailerLive = Layer.effect(
  Mailer,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    send: (mail) =>
      sql`INSERT INTO mail_outbox (recipient, subject, text_body, html_body)
          VALUES (${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html})`.pipe(Effect.asVoid, Effect.orDie),
    sendAll: (mails) =>
      mails.length === 0
        ? Effect.void
        : sql`INSERT INTO mail_outbox ${sql.insert(mails.map((m) => ({ recipient: m.to, subject: m.subject, text_body: m.text, html_body: m.html })))}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
  }))
)

export const OutboxReaderLive = Layer.effect(
  Outbox,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    latest: (limit) =>
      sql<{ id: string; recipient: string; subject: string; textBody: string; htmlBody: string; createdAt: Date }>`
        SELECT id, recipient, subject, text_body AS "textBody", html_body AS "htmlBody", created_at AS "createdAt"
        FROM mail_outbox ORDER BY created_at DESC, id LIMIT ${limit}`.pipe(
        Effect.map((rows) =>
          rows.map((r): StoredMail => ({ id: r.id, to: r.recipient, subject: r.subject, text: r.textBody, html: r.htmlBody, createdAt: r.createdAt }))
        ),
        Effect.orDie
      )
  }))
)

export const ContactRepositoryLive = Layer.effect(
  ContactRepository,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (m) =>
      sql`INSERT INTO contact_messages (name, email, subject, message, user_id)
          VALUES (${m.name}, ${m.email}, ${m.subject}, ${m.message}, ${m.userId})`.pipe(Effect.asVoid, Effect.orDie)
  }))
)
