import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { Languages } from "../../../platform/messages"
import { zoneOf } from "../../../platform/time-zones"
import { findAll, findOne } from "../../../platform/rows"
import type { NotificationPreferences } from "../preferences"
import { defaultPreferences, EmailFrequencies, MailKinds } from "../preferences"
import { MailAttachmentSchema } from "../delivery"
import {
  ContactRepository,
  DigestRepository,
  MailTransport,
  Outbox,
  PreferenceRepository,
  type RawMail,
  type Recipient,
  type StoredMail
} from "../ports"

/** A mail's attachments as the outbox's jsonb column stores them (the text, cast by PostgreSQL). */
const attachmentsJson = (mail: RawMail) => JSON.stringify(mail.attachments ?? [])

/** The outbox transport: mails are rows, written in the caller's transaction. */
export const OutboxTransportLive = Layer.effect(
  MailTransport,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    send: (mail) =>
      sql`INSERT INTO mail_outbox (recipient, subject, text_body, html_body, attachments)
          VALUES (${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html}, ${attachmentsJson(mail)}::jsonb)`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    sendAll: (mails) =>
      mails.length === 0
        ? Effect.void
        : sql`INSERT INTO mail_outbox ${sql.insert(
            mails.map((m) => ({
              recipient: m.to,
              subject: m.subject,
              text_body: m.text,
              html_body: m.html,
              attachments: attachmentsJson(m)
            }))
          )}`.pipe(Effect.asVoid, Effect.orDie)
  }))
)

// Rows as decoded (camelCase keys: see platform/database.ts).
const OutboxRow = Schema.Struct({
  id: Schema.String,
  recipient: Schema.String,
  subject: Schema.String,
  textBody: Schema.String,
  htmlBody: Schema.String,
  attachments: Schema.Array(MailAttachmentSchema),
  createdAt: Schema.DateFromSelf
})

export const OutboxReaderLive = Layer.effect(
  Outbox,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    latest: (limit) =>
      findAll(
        "latest mails",
        OutboxRow,
        sql`
        SELECT id, recipient, subject, text_body, html_body, attachments, created_at
        FROM mail_outbox ORDER BY seq DESC LIMIT ${limit}`
      ).pipe(
        Effect.map((rows) =>
          rows.map(
            (r): StoredMail => ({
              id: r.id,
              to: r.recipient,
              subject: r.subject,
              text: r.textBody,
              html: r.htmlBody,
              attachments: r.attachments,
              createdAt: r.createdAt
            })
          )
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

const RecipientRow = Schema.Struct({
  userId: Schema.String,
  email: Schema.String,
  firstName: Schema.String,
  language: Schema.Literal(...Languages),
  emailNotifications: Schema.NullOr(Schema.Boolean),
  emailFrequency: Schema.NullOr(Schema.Literal(...EmailFrequencies)),
  quietHoursEnabled: Schema.NullOr(Schema.Boolean),
  quietHoursStart: Schema.NullOr(Schema.String),
  quietHoursEnd: Schema.NullOr(Schema.String),
  timeZone: Schema.NullOr(Schema.String)
})
type RecipientRow = typeof RecipientRow.Type

/** The account's columns and its preferences (null when none are stored: the defaults). */
const RECIPIENT_COLUMNS = `u.id AS user_id, u.email::text AS email, u.first_name, u.preferred_language AS language,
  p.email_notifications, p.email_frequency, p.quiet_hours_enabled, p.quiet_hours_start, p.quiet_hours_end, u.time_zone`

/** The stored choices (the defaults without a row), in the account's zone. */
const preferencesOf = (row: RecipientRow): NotificationPreferences => {
  const timeZone = zoneOf(row.timeZone)
  return row.emailFrequency === null
    ? { ...defaultPreferences, timeZone }
    : {
        emailNotifications: row.emailNotifications!,
        emailFrequency: row.emailFrequency,
        quietHoursEnabled: row.quietHoursEnabled!,
        quietHoursStart: row.quietHoursStart!,
        quietHoursEnd: row.quietHoursEnd!,
        timeZone
      }
}

const toRecipient = (row: RecipientRow): Recipient => ({
  userId: row.userId,
  email: row.email,
  firstName: row.firstName,
  language: row.language,
  preferences: preferencesOf(row)
})

const SuppressionRow = Schema.Struct({
  userId: Schema.String,
  recipient: Schema.String,
  kind: Schema.Literal(...MailKinds),
  subject: Schema.String,
  reason: Schema.Literal("never", "disabled", "expired")
})

/** Preferences are notifications' table; the recipient's address and language are read from the accounts in the same statement. */
export const PreferenceRepositoryLive = Layer.effect(
  PreferenceRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const recipientsWhere = (condition: Statement.Fragment) =>
      findAll(
        "recipients",
        RecipientRow,
        sql`SELECT ${sql.literal(RECIPIENT_COLUMNS)} FROM users u
        LEFT JOIN notification_preferences p ON p.user_id = u.id WHERE ${condition}`
      ).pipe(
        Effect.map((rows) => rows.map(toRecipient)),
        Effect.orDie
      )
    const recipientById = (userId: string) => Effect.map(recipientsWhere(sql`u.id = ${userId}`), (rows) => Option.fromNullable(rows[0]))
    return PreferenceRepository.of({
      find: (userId) =>
        Effect.map(
          recipientById(userId),
          Option.map((recipient) => recipient.preferences)
        ),
      save: (userId, p) =>
        sql`INSERT INTO notification_preferences
              (user_id, email_notifications, email_frequency, quiet_hours_enabled, quiet_hours_start, quiet_hours_end)
            VALUES (${userId}, ${p.emailNotifications}, ${p.emailFrequency}, ${p.quietHoursEnabled}, ${p.quietHoursStart}, ${p.quietHoursEnd})
            ON CONFLICT (user_id) DO UPDATE SET
              email_notifications = EXCLUDED.email_notifications, email_frequency = EXCLUDED.email_frequency,
              quiet_hours_enabled = EXCLUDED.quiet_hours_enabled, quiet_hours_start = EXCLUDED.quiet_hours_start,
              quiet_hours_end = EXCLUDED.quiet_hours_end, updated_at = now()`.pipe(Effect.asVoid, Effect.orDie),
      recipients: (emails) => (emails.length === 0 ? Effect.succeed([]) : recipientsWhere(sql`u.email IN ${sql.in([...new Set(emails)])}`)),
      recipientById,
      recordSuppressed: (suppressions) =>
        suppressions.length === 0
          ? Effect.void
          : sql`INSERT INTO mail_suppressions ${sql.insert(suppressions.map((s) => ({ user_id: s.userId, recipient: s.recipient, kind: s.kind, subject: s.subject, reason: s.reason })))}`.pipe(
              Effect.asVoid,
              Effect.orDie
            ),
      suppressed: (userId) =>
        findAll(
          "suppressed mails",
          SuppressionRow,
          sql`
          SELECT user_id, recipient, kind, subject, reason FROM mail_suppressions
          WHERE user_id = ${userId} ORDER BY created_at, id`
        ).pipe(Effect.orDie)
    })
  })
)

const DigestRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  kind: Schema.Literal(...MailKinds),
  subject: Schema.String,
  body: Schema.String,
  link: Schema.String,
  createdAt: Schema.DateFromSelf
})

export const DigestRepositoryLive = Layer.effect(
  DigestRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    DigestRepository.of({
      add: (item) =>
        sql`INSERT INTO notification_digest_items (user_id, kind, subject, body, link, created_at)
            VALUES (${item.userId}, ${item.kind}, ${item.subject}, ${item.body}, ${item.link}, ${item.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      pendingRecipients: () =>
        findAll(
          "digest recipients",
          RecipientRow,
          sql`SELECT ${sql.literal(RECIPIENT_COLUMNS)} FROM users u
          LEFT JOIN notification_preferences p ON p.user_id = u.id
          WHERE u.id IN (SELECT DISTINCT user_id FROM notification_digest_items WHERE sent_at IS NULL)`
        ).pipe(
          Effect.map((rows) => rows.map(toRecipient)),
          Effect.orDie
        ),
      claim: (userId, before, at) =>
        findAll(
          "claimed digest items",
          DigestRow,
          sql`UPDATE notification_digest_items SET sent_at = ${at}
          WHERE id IN (
            SELECT id FROM notification_digest_items
            WHERE user_id = ${userId} AND sent_at IS NULL AND created_at < ${before}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, user_id, kind, subject, body, link, created_at`
        ).pipe(
          Effect.map((rows) => [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))),
          Effect.orDie
        ),
      pending: (userId) =>
        findAll(
          "pending digest items",
          DigestRow,
          sql`SELECT id, user_id, kind, subject, body, link, created_at
          FROM notification_digest_items WHERE user_id = ${userId} AND sent_at IS NULL ORDER BY created_at, id`
        ).pipe(Effect.orDie)
    })
  )
)
