import { SqlClient } from "@effect/sql"
import * as crypto from "node:crypto"
import { Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, single } from "../../../platform/rows"
import { displayName, FORMER_MEMBER, identifyingStrings } from "../domain"
import { DataExportStore, PersonalData } from "../ports"

// Privacy reads and erases one person's data across every module's tables, in SQL, as the
// administration's read models read them: an export is one consistent read, and an erasure must
// commit or roll back as one transaction (the service opens it). Each table named here is listed in
// the module's README with what happens to it.

/** Booking statuses after which nothing more happens to a booking (booking/domain.ts TERMINAL, and RESOLVED). */
const TERMINAL = ["COMPLETED", "VALIDATED", "REJECTED", "CANCELLED", "RESOLVED"]

/**
 * Free text that may name the person though it belongs to others' records: each occurrence of their full
 * name, email or phone is replaced (bounded to the column's limit). JSON columns are rewritten as text.
 */
const FREE_TEXT: ReadonlyArray<{ readonly table: string; readonly column: string; readonly max?: number; readonly json?: true }> = [
  { table: "mail_outbox", column: "subject" },
  { table: "mail_outbox", column: "text_body" },
  { table: "mail_outbox", column: "html_body" },
  { table: "mail_outbox", column: "attachments", json: true },
  { table: "mail_suppressions", column: "subject" },
  { table: "notification_digest_items", column: "subject" },
  { table: "notification_digest_items", column: "body" },
  { table: "messages", column: "content", max: 2000 },
  { table: "conversations", column: "title", max: 200 },
  { table: "reviews", column: "comment", max: 2000 },
  { table: "reports", column: "details", max: 1000 },
  { table: "reports", column: "decision_note", max: 1000 },
  { table: "bookings", column: "notes", max: 1000 },
  { table: "bookings", column: "cancellation_reason", max: 1000 },
  { table: "bookings", column: "rejection_reason", max: 1000 },
  { table: "payment_operations", column: "detail" },
  { table: "contact_messages", column: "message" },
  { table: "sandbox_idempotency_keys", column: "fingerprint" },
  { table: "sandbox_idempotency_keys", column: "response", json: true }
]

const Person = Schema.Struct({
  email: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  phoneNumber: Schema.String,
  avatarKey: Schema.NullOr(Schema.String),
  identityPhotoKey: Schema.NullOr(Schema.String)
})
const Json = Schema.Struct({ data: Schema.Unknown })
const WithOther = Schema.Struct({ data: Schema.Unknown, otherFirstName: Schema.String, otherLastName: Schema.String })
const Keys = Schema.Struct({ storageKey: Schema.String })

export const PersonalDataLive = Layer.effect(
  PersonalData,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const named = (rows: ReadonlyArray<typeof WithOther.Type>, field: string) =>
      rows.map((row) => ({ ...(row.data as Record<string, unknown>), [field]: displayName(row.otherFirstName, row.otherLastName) }))
    const jsonList = <E>(label: string, statement: Effect.Effect<ReadonlyArray<unknown>, E>) =>
      findAll(label, Json, statement).pipe(Effect.map((rows) => rows.map((row) => row.data)))

    return {
      blockers: (userId) =>
        single(
          "deletion blockers",
          Schema.Struct({ bookingUnderWay: Schema.Boolean, moneyHeld: Schema.Boolean }),
          sql`WITH mine AS (
              SELECT status, payment_status FROM bookings WHERE client_id = ${userId} OR provider_id = ${userId} FOR UPDATE
            )
            SELECT EXISTS (SELECT 1 FROM mine WHERE status NOT IN ${sql.in(TERMINAL)}) AS booking_under_way,
              EXISTS (SELECT 1 FROM mine WHERE payment_status = 'AUTHORIZED') AS money_held`
        ).pipe(Effect.orDie),

      archive: (userId, at) =>
        Effect.gen(function* () {
          const profile = yield* findOne(
            "export profile",
            Json,
            sql`SELECT to_jsonb(p) AS data FROM (
              SELECT id, email::text AS email, first_name, last_name, phone_number, role, preferred_language, time_zone,
                is_email_verified, created_at, bio, description, specialities, experience_years, languages, certifications,
                social_links, availability, profile_visibility, location, address, city, postal_code, country,
                hourly_rate::text AS hourly_rate, currency, date_of_birth
              FROM users WHERE id = ${userId}) p`
          )
          const uploads = yield* single(
            "export uploads",
            Json,
            sql`SELECT jsonb_build_object(
                'avatar', CASE WHEN avatar_key IS NULL THEN NULL ELSE jsonb_build_object(
                  'contentType', avatar_content_type, 'sizeBytes', avatar_size, 'updatedAt', avatar_updated_at) END,
                'identityPhoto', CASE WHEN identity_photo_key IS NULL THEN NULL ELSE jsonb_build_object(
                  'contentType', identity_photo_content_type, 'sizeBytes', identity_photo_size, 'updatedAt', identity_photo_updated_at) END,
                'applicationDocuments', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                  'slot', d.slot, 'type', d.type, 'fileName', d.file_name, 'contentType', d.content_type,
                  'sizeBytes', d.size_bytes, 'isVerified', d.is_verified, 'createdAt', d.created_at) ORDER BY d.created_at), '[]'::jsonb)
                  FROM application_documents d JOIN provider_applications a ON a.id = d.application_id WHERE a.user_id = ${userId})
              ) AS data FROM users WHERE id = ${userId}`
          )
          const services = yield* jsonList(
            "export services",
            sql`SELECT to_jsonb(s) AS data FROM (
              SELECT id, title, description, price_minor, currency, duration_minutes, location, status, archived_at, created_at,
                (SELECT coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'position', p.position, 'createdAt', p.created_at,
                   'renditions', (SELECT jsonb_agg(f - 'key') FROM jsonb_array_elements(p.files) f)) ORDER BY p.position), '[]'::jsonb)
                 FROM service_photos p WHERE p.service_id = services.id) AS photos
              FROM services WHERE user_id = ${userId} ORDER BY created_at) s`
          )
          // The other party by display name only; their address and notes stay out of a provider's export.
          const bookings = yield* findAll(
            "export bookings",
            WithOther,
            sql`SELECT jsonb_build_object(
                'id', b.id, 'as', CASE WHEN b.client_id = ${userId} THEN 'CLIENT' ELSE 'PROVIDER' END,
                'service', s.title, 'startTime', b.start_time, 'endTime', b.end_time,
                'address', CASE WHEN b.client_id = ${userId} THEN b.address END,
                'notes', CASE WHEN b.client_id = ${userId} THEN b.notes END,
                'totalMinor', b.total_minor, 'currency', b.currency, 'status', b.status, 'paymentStatus', b.payment_status,
                'createdAt', b.created_at) AS data,
              o.first_name AS other_first_name, o.last_name AS other_last_name
            FROM bookings b JOIN services s ON s.id = b.service_id
              JOIN users o ON o.id = CASE WHEN b.client_id = ${userId} THEN b.provider_id ELSE b.client_id END
            WHERE b.client_id = ${userId} OR b.provider_id = ${userId} ORDER BY b.start_time`
          )
          const conversations = yield* findAll(
            "export conversations",
            WithOther,
            sql`SELECT jsonb_build_object('id', c.id, 'title', c.title, 'createdAt', c.created_at) AS data,
              coalesce(o.first_name, '') AS other_first_name, coalesce(o.last_name, '') AS other_last_name
            FROM conversations c JOIN conversation_participants me ON me.conversation_id = c.id AND me.user_id = ${userId}
              LEFT JOIN conversation_participants op ON op.conversation_id = c.id AND op.user_id <> ${userId}
              LEFT JOIN users o ON o.id = op.user_id
            ORDER BY c.created_at`
          )
          // The messages they wrote (the other party's words are the other party's data).
          const messages = yield* jsonList(
            "export messages",
            sql`SELECT jsonb_build_object('id', id, 'conversationId', conversation_id, 'content', content, 'sentAt', created_at) AS data
            FROM messages WHERE sender_id = ${userId} ORDER BY conversation_id, seq`
          )
          const reviewsWritten = yield* findAll(
            "export reviews written",
            WithOther,
            sql`SELECT jsonb_build_object('id', r.id, 'bookingId', r.booking_id, 'service', s.title, 'rating', r.rating,
                'comment', r.comment, 'createdAt', r.created_at) AS data,
              o.first_name AS other_first_name, o.last_name AS other_last_name
            FROM reviews r JOIN services s ON s.id = r.service_id JOIN users o ON o.id = r.provider_id
            WHERE r.client_id = ${userId} ORDER BY r.created_at`
          )
          const reviewsReceived = yield* findAll(
            "export reviews received",
            WithOther,
            sql`SELECT jsonb_build_object('id', r.id, 'bookingId', r.booking_id, 'service', s.title, 'rating', r.rating,
                'comment', r.comment, 'createdAt', r.created_at) AS data,
              o.first_name AS other_first_name, o.last_name AS other_last_name
            FROM reviews r JOIN services s ON s.id = r.service_id JOIN users o ON o.id = r.client_id
            WHERE r.provider_id = ${userId} ORDER BY r.created_at`
          )
          const applications = yield* jsonList(
            "export applications",
            sql`SELECT to_jsonb(a) AS data FROM (
              SELECT id, status, skills, experience, motivation, date_of_birth, rejection_reason, rejection_count,
                submitted_at, reviewed_at, created_at
              FROM provider_applications WHERE user_id = ${userId} ORDER BY created_at) a`
          )
          const preferences = yield* findOne(
            "export preferences",
            Json,
            sql`SELECT to_jsonb(p) AS data FROM (
              SELECT email_notifications, email_frequency, quiet_hours_enabled, quiet_hours_start, quiet_hours_end
              FROM notification_preferences WHERE user_id = ${userId}) p`
          )
          return {
            exportedAt: at.toISOString(),
            profile: Option.getOrNull(Option.map(profile, (row) => row.data)),
            uploads: uploads.data,
            services,
            bookings: named(bookings, "otherParty"),
            conversations: named(conversations, "with"),
            messages,
            reviews: { written: named(reviewsWritten, "provider"), received: named(reviewsReceived, "author") },
            applications,
            notificationPreferences: Option.getOrNull(Option.map(preferences, (row) => row.data))
          }
        }).pipe(Effect.orDie),

      erase: (userId, at) =>
        Effect.gen(function* () {
          const found = yield* findOne(
            "person to erase",
            Person,
            sql`SELECT email::text AS email, first_name, last_name, phone_number, avatar_key, identity_photo_key
              FROM users WHERE id = ${userId} AND deleted_at IS NULL FOR UPDATE`
          )
          if (Option.isNone(found)) return []
          const person = found.value
          const documents = yield* findAll(
            "application files",
            Keys,
            sql`SELECT d.storage_key FROM application_documents d JOIN provider_applications a ON a.id = d.application_id
              WHERE a.user_id = ${userId}`
          )
          // Their services' photos go with them (files removed after the commit, like the others).
          const photos = yield* findAll(
            "service photo files",
            Keys,
            sql`WITH gone AS (
                DELETE FROM service_photos p USING services s WHERE s.id = p.service_id AND s.user_id = ${userId} RETURNING p.files)
              SELECT f->>'key' AS storage_key FROM gone, jsonb_array_elements(gone.files) f`
          )
          const placeholder = `deleted-${userId}@deleted.invalid`
          // Mails to them go; mentions of them in everybody else's records are replaced.
          yield* sql`DELETE FROM mail_outbox WHERE lower(recipient) = lower(${person.email})`
          const needles = identifyingStrings(person)
          if (needles.length > 0)
            yield* Effect.forEach(
              FREE_TEXT,
              ({ table, column, max, json }) => {
                const current = json ? sql`${sql(column)}::text` : sql`${sql(column)}`
                const replaced = needles.reduce((text, needle) => sql`replace(${text}, ${needle}, ${FORMER_MEMBER})`, current)
                const value = json ? sql`(${replaced})::jsonb` : max ? sql`left(${replaced}, ${max})` : replaced
                return sql`UPDATE ${sql(table)} SET ${sql(column)} = ${value}
                  WHERE ${sql.or(needles.map((needle) => sql`strpos(${current}, ${needle}) > 0`))}`
              },
              { discard: true }
            )
          // What is theirs alone goes.
          yield* sql`DELETE FROM refresh_tokens WHERE user_id = ${userId}`
          yield* sql`DELETE FROM one_time_tokens WHERE user_id = ${userId}`
          yield* sql`DELETE FROM data_exports WHERE user_id = ${userId}`
          yield* sql`DELETE FROM notification_preferences WHERE user_id = ${userId}`
          yield* sql`DELETE FROM notification_digest_items WHERE user_id = ${userId}`
          yield* sql`DELETE FROM mail_suppressions WHERE user_id = ${userId} OR lower(recipient) = lower(${person.email})`
          yield* sql`DELETE FROM contact_messages WHERE user_id = ${userId} OR lower(email) = lower(${person.email})`
          yield* sql`DELETE FROM favorites WHERE user_id = ${userId} OR favorited_id = ${userId}`
          yield* sql`DELETE FROM user_blocks WHERE blocker_id = ${userId} OR blocked_id = ${userId}`
          yield* sql`DELETE FROM calendar_feeds WHERE provider_id = ${userId}`
          yield* sql`DELETE FROM availability_exceptions WHERE provider_id = ${userId}`
          yield* sql`DELETE FROM availability_ranges WHERE provider_id = ${userId}`
          yield* sql`DELETE FROM availability_plans WHERE provider_id = ${userId}`
          yield* sql`DELETE FROM application_documents WHERE application_id IN (SELECT id FROM provider_applications WHERE user_id = ${userId})`
          yield* sql`DELETE FROM provider_applications WHERE user_id = ${userId}`
          // Two-step login: the secret, its recovery codes and any pending challenge.
          yield* sql`DELETE FROM two_factor_challenges WHERE user_id = ${userId}`
          yield* sql`DELETE FROM two_factor_recovery_codes WHERE user_id = ${userId}`
          yield* sql`DELETE FROM two_factor_secrets WHERE user_id = ${userId}`
          // Their services leave the catalogue (bookings keep pointing at them, by title). The position
          // columns are NOT NULL: their default (0, 0) stands for "no place".
          yield* sql`UPDATE services SET status = 'INACTIVE', archived_at = coalesce(archived_at, ${at}), location = '', lat = DEFAULT, lng = DEFAULT,
              updated_at = ${at} WHERE user_id = ${userId}`
          // Bookings and payments stay for the legal period, without the client's address and notes.
          yield* sql`UPDATE bookings SET address = '-', notes = '', updated_at = ${at} WHERE client_id = ${userId}`
          // The local payment sandbox stands in for the gateway: its customer records lose the address too.
          yield* sql`UPDATE sandbox_customers SET email = ${placeholder} WHERE lower(email) = lower(${person.email})`
          yield* sql`UPDATE sandbox_accounts SET email = ${placeholder} WHERE lower(email) = lower(${person.email})`
          yield* sql`UPDATE sandbox_checkout_sessions SET customer_email = ${placeholder}, cardholder_name = NULL
              WHERE lower(customer_email) = lower(${person.email})`
          // The account row stays (bookings, payments and reviews point at it): no name, contact or profile, no login.
          yield* sql`UPDATE users SET email = ${placeholder}, password_hash = '!', first_name = '', last_name = '', phone_number = '',
              is_active = false, is_email_verified = false, bio = '', description = '', specialities = '{}', experience_years = NULL,
              languages = '{}', certifications = '{}', social_links = '{}'::jsonb, availability = '', profile_visibility = 'PRIVATE',
              location = '', address = '', city = '', postal_code = '', country = '', hourly_rate = NULL, date_of_birth = NULL,
              avatar_key = NULL, avatar_content_type = NULL, avatar_size = NULL, avatar_updated_at = NULL,
              identity_photo_key = NULL, identity_photo_content_type = NULL, identity_photo_size = NULL, identity_photo_updated_at = NULL,
              time_zone = NULL, identity_verified_at = NULL, deleted_at = ${at}, updated_at = ${at}
            WHERE id = ${userId}`
          return [
            person.avatarKey,
            person.identityPhotoKey,
            ...documents.map((d) => d.storageKey),
            ...photos.map((p) => p.storageKey)
          ].filter((key): key is string => key !== null)
        }).pipe(Effect.orDie)
    }
  })
)

// An export opens only under the password it was made under (a change of password voids its link),
// and only for an active account: both are read from the users row at download.
const digest = (token: string) => crypto.createHash("sha256").update(token).digest("base64url")

export const DataExportStoreLive = Layer.effect(
  DataExportStore,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    create: (userId, archive, at, expiresAt) =>
      Effect.gen(function* () {
        const token = crypto.randomBytes(32).toString("base64url")
        // The account row is locked (shared) as the deletion locks it: an export and a deletion take turns.
        const rows =
          yield* sql`INSERT INTO data_exports (user_id, token_hash, archive, requested_at, ready_at, expires_at, password_fingerprint)
          SELECT id, ${digest(token)}, ${JSON.stringify(archive)}::jsonb, ${at}, ${at}, ${expiresAt}, sha256(convert_to(password_hash, 'UTF8'))
          FROM users WHERE id = ${userId} AND deleted_at IS NULL FOR SHARE
          RETURNING id`
        return rows.length > 0 ? Option.some(token) : Option.none()
      }).pipe(Effect.orDie),
    claim: (token, at) =>
      findOne(
        "data export",
        Schema.Struct({ userId: Schema.String, archive: Schema.Unknown }),
        sql`WITH usable AS (
            SELECT e.id, e.user_id, e.archive FROM data_exports e JOIN users u ON u.id = e.user_id
            WHERE e.token_hash = ${digest(token)} AND e.expires_at > ${at} AND e.archive IS NOT NULL AND e.downloaded_at IS NULL
              AND u.deleted_at IS NULL AND u.is_active AND e.password_fingerprint = sha256(convert_to(u.password_hash, 'UTF8'))
            FOR UPDATE OF e)
          UPDATE data_exports d SET downloaded_at = ${at}, archive = NULL FROM usable
          WHERE d.id = usable.id AND d.downloaded_at IS NULL
          RETURNING usable.user_id, usable.archive`
      ).pipe(Effect.orDie)
  }))
)

export const PrivacyPostgresAdapters = Layer.merge(PersonalDataLive, DataExportStoreLive)
