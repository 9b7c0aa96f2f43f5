import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, single } from "../../../../platform/rows"
import { UserRow } from "../../adapters/postgres"
import { cancellationRateOf, type Currency, noStatistics, type Profile, type ProfileFile, ProfileVisibilities } from "../domain"
import { FavoriteRepository, ProfileRelations, ProfileRepository, ProfileStatisticsSource } from "../ports"

/**
 * The profile columns of `users`, read back as a `ProfileRow` (camelCase keys: see
 * platform/database.ts). hourly_rate is numeric (text on the wire): read as float8.
 */
export const profileColumns = (sql: SqlClient.SqlClient, table = "users") =>
  sql.unsafe(`
  ${table}.bio, ${table}.description, ${table}.specialities, ${table}.experience_years,
  ${table}.languages, ${table}.certifications, ${table}.social_links, ${table}.availability,
  ${table}.profile_visibility, ${table}.location, ${table}.address, ${table}.city,
  ${table}.postal_code, ${table}.country, ${table}.hourly_rate::float8 AS hourly_rate, ${table}.currency,
  to_char(${table}.date_of_birth, 'YYYY-MM-DD') AS date_of_birth,
  ${table}.avatar_key, ${table}.avatar_content_type, ${table}.avatar_size, ${table}.avatar_updated_at,
  ${table}.identity_photo_key, ${table}.identity_photo_content_type, ${table}.identity_photo_size, ${table}.identity_photo_updated_at,
  ${table}.identity_verified_at`)

export const ProfileRow = Schema.Struct({
  bio: Schema.String,
  description: Schema.String,
  specialities: Schema.Array(Schema.String),
  experienceYears: Schema.NullOr(Schema.Number),
  languages: Schema.Array(Schema.String),
  certifications: Schema.Array(Schema.String),
  socialLinks: Schema.Record({ key: Schema.String, value: Schema.String }),
  availability: Schema.String,
  profileVisibility: Schema.Literal(...ProfileVisibilities),
  location: Schema.String,
  address: Schema.String,
  city: Schema.String,
  postalCode: Schema.String,
  country: Schema.String,
  hourlyRate: Schema.NullOr(Schema.Number),
  currency: Schema.String,
  dateOfBirth: Schema.NullOr(Schema.String),
  avatarKey: Schema.NullOr(Schema.String),
  avatarContentType: Schema.NullOr(Schema.String),
  avatarSize: Schema.NullOr(Schema.Number),
  avatarUpdatedAt: Schema.NullOr(Schema.DateFromSelf),
  identityPhotoKey: Schema.NullOr(Schema.String),
  identityPhotoContentType: Schema.NullOr(Schema.String),
  identityPhotoSize: Schema.NullOr(Schema.Number),
  identityPhotoUpdatedAt: Schema.NullOr(Schema.DateFromSelf),
  identityVerifiedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type ProfileRow = typeof ProfileRow.Type
const FavoriteRow = Schema.extend(
  Schema.extend(UserRow, ProfileRow),
  Schema.Struct({ favoritedAt: Schema.DateFromSelf, total: Schema.Number })
)

const fileOf = (key: string | null, contentType: string | null, size: number | null, updatedAt: Date | null): ProfileFile | null =>
  key === null
    ? null
    : { key, contentType: contentType ?? "application/octet-stream", size: size ?? 0, updatedAt: updatedAt ?? new Date(0) }

export const profileOf = (row: ProfileRow): Profile => ({
  bio: row.bio,
  description: row.description,
  specialities: row.specialities,
  experienceYears: row.experienceYears,
  languages: row.languages,
  certifications: row.certifications,
  socialLinks: row.socialLinks,
  availability: row.availability,
  profileVisibility: row.profileVisibility,
  location: row.location,
  address: row.address,
  city: row.city,
  postalCode: row.postalCode,
  country: row.country,
  hourlyRate: row.hourlyRate,
  currency: row.currency.trim() as Currency,
  dateOfBirth: row.dateOfBirth,
  avatar: fileOf(row.avatarKey, row.avatarContentType, row.avatarSize, row.avatarUpdatedAt),
  identityPhoto: fileOf(row.identityPhotoKey, row.identityPhotoContentType, row.identityPhotoSize, row.identityPhotoUpdatedAt),
  identityVerifiedAt: row.identityVerifiedAt
})

const userColumns = (sql: SqlClient.SqlClient) => sql`
  u.id, u.email, u.first_name, u.last_name, u.phone_number, u.role, u.is_email_verified, u.is_active,
  u.preferred_language, u.time_zone, u.created_at`

export const ProfileRepositoryLive = Layer.effect(
  ProfileRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    // The FROM sub-select locks the row and reads the key being replaced (RETURNING sees the new row only).
    const setFile = (column: "avatar" | "identity_photo", userId: string, file: ProfileFile | null) =>
      findOne(
        "replaced profile file",
        Schema.Struct({ previous: Schema.NullOr(Schema.String) }),
        sql`
        UPDATE users AS u SET
          ${sql.unsafe(`${column}_key`)} = ${file?.key ?? null},
          ${sql.unsafe(`${column}_content_type`)} = ${file?.contentType ?? null},
          ${sql.unsafe(`${column}_size`)} = ${file?.size ?? null},
          ${sql.unsafe(`${column}_updated_at`)} = ${file?.updatedAt ?? null},
          updated_at = now()
        FROM (SELECT id, ${sql.unsafe(`${column}_key`)} AS key FROM users WHERE id = ${userId} FOR UPDATE) AS old
        WHERE u.id = old.id
        RETURNING old.key AS previous`
      ).pipe(Effect.map(Option.flatMap((row) => Option.fromNullable(row.previous))), Effect.orDie)
    return {
      find: (userId) =>
        findOne("profile", ProfileRow, sql`SELECT ${profileColumns(sql)} FROM users WHERE id = ${userId}`).pipe(
          Effect.map(Option.map(profileOf)),
          Effect.orDie
        ),
      update: (userId, profile) => {
        const set: Record<string, unknown> = {}
        const columns: Record<string, string> = {
          bio: "bio",
          description: "description",
          experienceYears: "experience_years",
          availability: "availability",
          profileVisibility: "profile_visibility",
          location: "location",
          address: "address",
          city: "city",
          postalCode: "postal_code",
          country: "country",
          hourlyRate: "hourly_rate",
          currency: "currency"
        }
        for (const [field, column] of Object.entries(columns)) {
          const value = (profile as Record<string, unknown>)[field]
          if (value !== undefined) set[column] = value
        }
        const assignments = Object.entries(set).map(([column, value]) => sql`${sql(column)} = ${value as string}`)
        if (profile.specialities !== undefined) assignments.push(sql`specialities = ${profile.specialities as Array<string>}::text[]`)
        if (profile.languages !== undefined) assignments.push(sql`languages = ${profile.languages as Array<string>}::text[]`)
        if (profile.certifications !== undefined) assignments.push(sql`certifications = ${profile.certifications as Array<string>}::text[]`)
        if (profile.socialLinks !== undefined) assignments.push(sql`social_links = ${JSON.stringify(profile.socialLinks)}::jsonb`)
        if (profile.dateOfBirth !== undefined) assignments.push(sql`date_of_birth = ${profile.dateOfBirth}::date`)
        if (assignments.length === 0) return Effect.void
        return sql`UPDATE users SET ${sql.csv(assignments)}, updated_at = now() WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie)
      },
      setAvatar: (userId, file) => setFile("avatar", userId, file),
      setIdentityPhoto: (userId, file) => setFile("identity_photo", userId, file),
      setDateOfBirthIfMissing: (userId, dateOfBirth) =>
        sql`UPDATE users SET date_of_birth = ${dateOfBirth}::date, updated_at = now() WHERE id = ${userId} AND date_of_birth IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      setIdentityVerified: (userId, at) =>
        sql`UPDATE users SET identity_verified_at = ${at}, updated_at = now() WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)

export const FavoriteRepositoryLive = Layer.effect(
  FavoriteRepository,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    add: (userId, favoritedId) =>
      sql`INSERT INTO favorites (user_id, favorited_id) VALUES (${userId}, ${favoritedId})
          ON CONFLICT (user_id, favorited_id) DO NOTHING RETURNING user_id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),
    remove: (userId, favoritedId) =>
      sql`DELETE FROM favorites WHERE user_id = ${userId} AND favorited_id = ${favoritedId} RETURNING user_id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),
    has: (userId, favoritedId) =>
      sql`SELECT 1 FROM favorites WHERE user_id = ${userId} AND favorited_id = ${favoritedId}`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),
    list: (userId, page) =>
      Effect.gen(function* () {
        const rows = yield* findAll(
          "favorites page",
          FavoriteRow,
          sql`
          SELECT ${userColumns(sql)}, ${profileColumns(sql, "u")}, f.created_at AS favorited_at, count(*) OVER () AS total
          FROM favorites f JOIN users u ON u.id = f.favorited_id
          WHERE f.user_id = ${userId} AND u.is_active
          ORDER BY f.created_at DESC, f.favorited_id
          LIMIT ${page.limit} OFFSET ${page.offset}`
        )
        const total =
          rows[0]?.total ??
          (yield* single(
            "favorites count",
            Schema.Struct({ n: Schema.Number }),
            sql`SELECT count(*) AS n FROM favorites f JOIN users u ON u.id = f.favorited_id
                WHERE f.user_id = ${userId} AND u.is_active`
          )).n
        return {
          total,
          entries: rows.map((row) => ({
            favoritedId: row.id,
            createdAt: row.favoritedAt,
            user: {
              id: row.id,
              email: row.email,
              firstName: row.firstName,
              lastName: row.lastName,
              phoneNumber: row.phoneNumber,
              role: row.role,
              isEmailVerified: row.isEmailVerified,
              isActive: row.isActive,
              preferredLanguage: row.preferredLanguage,
              timeZone: row.timeZone,
              createdAt: row.createdAt
            },
            profile: profileOf(row)
          }))
        }
      }).pipe(Effect.orDie)
  }))
)

/** Which of the tables other modules own exist in this database (they arrive with their migrations). */
const existingColumns = (sql: SqlClient.SqlClient, table: string) =>
  findAll(
    "columns of a table",
    Schema.Struct({ columnName: Schema.String }),
    sql`
    SELECT column_name FROM information_schema.columns
    WHERE table_name = ${table} AND table_schema = ANY (current_schemas(false))`
  ).pipe(Effect.map((rows) => new Set(rows.map((r) => r.columnName))))

/**
 * A provider's cancellation rate (issue 13): of the bookings they confirmed (`confirmed_at` set when the
 * provider accepts), those they cancelled themselves (an administrator's or the client's cancellation does not count).
 */
const cancellationRate = (sql: SqlClient.SqlClient, userId: string) =>
  Effect.map(
    single(
      "cancellation rate",
      Schema.Struct({ confirmed: Schema.Number, cancelled: Schema.Number }),
      sql`
      SELECT count(*) AS confirmed, count(*) FILTER (WHERE status = 'CANCELLED' AND cancelled_by = 'PROVIDER') AS cancelled
      FROM bookings WHERE provider_id = ${userId} AND confirmed_at IS NOT NULL`
    ),
    ({ cancelled, confirmed }) => cancellationRateOf(confirmed, cancelled)
  )

/**
 * The median, in whole minutes, of the time the user took to answer conversations others started:
 * per conversation whose first message someone else sent, the delay from that message to the user's
 * first message after it (conversations never answered do not count). Null while there is none.
 * Read from messaging's `messages` and `conversation_participants`.
 */
const responseTimeOf = (sql: SqlClient.SqlClient, userId: string) =>
  single(
    "response time",
    Schema.Struct({ minutes: Schema.NullOr(Schema.Number) }),
    sql`
    WITH firsts AS (
      SELECT DISTINCT ON (m.conversation_id) m.conversation_id, m.sender_id, m.seq, m.created_at
      FROM conversation_participants p JOIN messages m ON m.conversation_id = p.conversation_id
      WHERE p.user_id = ${userId}
      ORDER BY m.conversation_id, m.seq
    )
    SELECT round((percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.created_at - f.created_at)) / 60)::numeric)::float8 AS minutes
    FROM firsts f
    CROSS JOIN LATERAL (
      SELECT m.created_at FROM messages m
      WHERE m.conversation_id = f.conversation_id AND m.sender_id = ${userId} AND m.seq > f.seq
      ORDER BY m.seq LIMIT 1
    ) r
    WHERE f.sender_id <> ${userId}`
  ).pipe(Effect.map((row) => row.minutes))

/**
 * Statistics from the data of other modules, read where it lives: the catalogue's `services` (count
 * of live services, and the reviews it aggregates per service: rating and review_count), and, once the
 * bookings issue lands, `bookings` (joined to the user's services; COMPLETED or VALIDATED count as
 * completed). A table that does not exist yet gives 0; responseTime is the median
 * first-answer time (responseTimeOf).
 */
export const ProfileStatisticsSourceLive = Layer.effect(
  ProfileStatisticsSource,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    of: (userId) =>
      Effect.gen(function* () {
        const services = yield* existingColumns(sql, "services")
        if (!["user_id", "status", "archived_at", "rating", "review_count"].every((c) => services.has(c))) return noStatistics
        // The weighted rating is numeric (text on the wire): read as float8.
        const catalogue = yield* single(
          "catalogue statistics",
          Schema.Struct({ servicesCount: Schema.Number, totalReviews: Schema.Number, weighted: Schema.NullOr(Schema.Number) }),
          sql`
          SELECT count(*) FILTER (WHERE status = 'ACTIVE') AS services_count,
                 coalesce(sum(review_count), 0) AS total_reviews,
                 (sum(rating * review_count) / nullif(sum(review_count), 0))::float8 AS weighted
          FROM services WHERE user_id = ${userId} AND archived_at IS NULL`
        )
        const statistics = {
          ...noStatistics,
          responseTime: yield* responseTimeOf(sql, userId),
          servicesCount: catalogue.servicesCount,
          totalReviews: catalogue.totalReviews,
          averageRating: catalogue.weighted ? Math.round(catalogue.weighted * 100) / 100 : 0
        }
        const bookings = yield* existingColumns(sql, "bookings")
        if (!bookings.has("service_id") || !bookings.has("status")) return statistics
        const { completed, total } = yield* single(
          "booking statistics",
          Schema.Struct({ total: Schema.Number, completed: Schema.Number }),
          sql`
          SELECT count(*) AS total, count(*) FILTER (WHERE b.status IN ('COMPLETED', 'VALIDATED')) AS completed
          FROM bookings b JOIN services s ON s.id = b.service_id WHERE s.user_id = ${userId}`
        )
        const withBookings = {
          ...statistics,
          totalBookings: total,
          completedBookings: completed,
          completionRate: total === 0 ? 0 : Math.round((completed / total) * 1000) / 1000
        }
        return bookings.has("confirmed_at") ? { ...withBookings, cancellationRate: yield* cancellationRate(sql, userId) } : withBookings
      }).pipe(Effect.orDie)
  }))
)

/**
 * FRIENDS_ONLY relations: a booking between the two users (one booked a service of the other), or a
 * conversation they both take part in. Each source counts only once its table exists with the
 * expected columns (`bookings(client_id, service_id)`, `conversation_participants(conversation_id,
 * user_id)`); until bookings and messaging land, only the owner and admins see such profiles.
 */
export const ProfileRelationsLive = Layer.effect(
  ProfileRelations,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    connected: (viewerId, ownerId) =>
      Effect.gen(function* () {
        const bookings = yield* existingColumns(sql, "bookings")
        if (bookings.has("client_id") && bookings.has("service_id")) {
          const rows = yield* sql`
            SELECT 1 FROM bookings b JOIN services s ON s.id = b.service_id
            WHERE (b.client_id = ${viewerId} AND s.user_id = ${ownerId}) OR (b.client_id = ${ownerId} AND s.user_id = ${viewerId})
            LIMIT 1`
          if (rows.length > 0) return true
        }
        const participants = yield* existingColumns(sql, "conversation_participants")
        if (participants.has("conversation_id") && participants.has("user_id")) {
          const rows = yield* sql`
            SELECT 1 FROM conversation_participants a JOIN conversation_participants b ON a.conversation_id = b.conversation_id
            WHERE a.user_id = ${viewerId} AND b.user_id = ${ownerId} LIMIT 1`
          if (rows.length > 0) return true
        }
        return false
      }).pipe(Effect.orDie)
  }))
)

export const ProfilePostgresAdapters = Layer.mergeAll(
  ProfileRepositoryLive,
  FavoriteRepositoryLive,
  ProfileStatisticsSourceLive,
  ProfileRelationsLive
)
