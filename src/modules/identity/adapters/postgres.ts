import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { EmailTaken, Role } from "../domain"
import * as crypto from "node:crypto"
import { derivedKey } from "../../../platform/app-secret"
import { OneTimeTokenStore, RefreshTokenStore, TwoFactorStore, UserRepository } from "../ports"
import { type Language, Languages } from "../../../platform/messages"
import { findAll, findOne, single } from "../../../platform/rows"

const userColumns = (sql: SqlClient.SqlClient) => sql`
  id, email::text AS email, first_name, last_name, phone_number, role, is_email_verified, is_active, preferred_language, time_zone, created_at`

// Rows as decoded (camelCase keys: see platform/database.ts).
export const UserRow = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  phoneNumber: Schema.String,
  role: Role,
  isEmailVerified: Schema.Boolean,
  isActive: Schema.Boolean,
  preferredLanguage: Schema.Literal(...Languages),
  timeZone: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
})
const RefreshTokenRow = Schema.Struct({
  userId: Schema.String,
  familyId: Schema.String,
  expiresAt: Schema.DateFromSelf,
  rotatedAt: Schema.NullOr(Schema.DateFromSelf),
  revokedAt: Schema.NullOr(Schema.DateFromSelf)
})

const SessionRow = Schema.Struct({
  id: Schema.String,
  openedAt: Schema.DateFromSelf,
  lastUsedAt: Schema.DateFromSelf,
  expiresAt: Schema.DateFromSelf,
  userAgent: Schema.NullOr(Schema.String),
  coarseAddress: Schema.NullOr(Schema.String)
})

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { cause?: { code?: string } }).cause?.code === "23505"

export const UserRepositoryLive = Layer.effect(
  UserRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    // Built once: findById runs on every authenticated request.
    const selected = userColumns(sql)
    return {
      findById: (id) => findOne("user", UserRow, sql`SELECT ${selected} FROM users WHERE id = ${id}`).pipe(Effect.orDie),
      // A revoked row of the family means the session was ended (revocation marks every row of it).
      findInSession: (id, sessionId) =>
        findOne(
          "user in session",
          Schema.extend(UserRow, Schema.Struct({ sessionEnded: Schema.Boolean })),
          sql`SELECT ${selected}, EXISTS (
            SELECT 1 FROM refresh_tokens WHERE family_id = ${sessionId} AND user_id = users.id AND revoked_at IS NOT NULL
          ) AS session_ended FROM users WHERE id = ${id}`
        ).pipe(Effect.map(Option.map(({ sessionEnded, ...user }) => ({ user, sessionEnded }))), Effect.orDie),
      findByEmail: (email) =>
        findOne(
          "user by email",
          Schema.extend(UserRow, Schema.Struct({ passwordHash: Schema.String })),
          sql`
          SELECT ${selected}, password_hash FROM users WHERE email = ${email}`
        ).pipe(Effect.orDie),
      insert: (a) =>
        single(
          "new user",
          UserRow,
          sql`INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language, time_zone)
          VALUES (${a.email}, ${a.passwordHash}, ${a.firstName}, ${a.lastName}, ${a.phoneNumber}, ${a.role}, ${a.isEmailVerified}, ${a.preferredLanguage}, ${a.timeZone ?? null})
          RETURNING ${selected}`
        ).pipe(Effect.catchAll((error) => (isUniqueViolation(error) ? Effect.fail(EmailTaken) : Effect.die(error)))),
      markEmailVerified: (id) =>
        sql`UPDATE users SET is_email_verified = true, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setPasswordHash: (id, hash) =>
        sql`UPDATE users SET password_hash = ${hash}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findPasswordHash: (id) =>
        findOne(
          "password hash",
          Schema.Struct({ passwordHash: Schema.String }),
          sql`SELECT password_hash FROM users WHERE id = ${id}`
        ).pipe(Effect.map(Option.map((row) => row.passwordHash)), Effect.orDie),
      setPreferredLanguage: (id, language: Language) =>
        sql`UPDATE users SET preferred_language = ${language}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      adoptTimeZone: (id, zone) =>
        sql`UPDATE users SET time_zone = ${zone}, updated_at = now() WHERE id = ${id} AND time_zone IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      setRole: (id, role: Role) =>
        sql`UPDATE users SET role = ${role}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setEmail: (id, email) =>
        sql`UPDATE users SET email = ${email}, is_email_verified = true, updated_at = now() WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.catchAll((error) => (isUniqueViolation(error) ? Effect.fail(EmailTaken) : Effect.die(error)))
        ),
      setActive: (id, active) =>
        sql`UPDATE users SET is_active = ${active}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      updateAccount: (id, patch) => {
        const columns = {
          firstName: "first_name",
          lastName: "last_name",
          phoneNumber: "phone_number",
          preferredLanguage: "preferred_language",
          timeZone: "time_zone"
        } as const
        const assignments = (Object.keys(columns) as Array<keyof typeof columns>)
          .filter((field) => patch[field] !== undefined)
          .map((field) => sql`${sql(columns[field])} = ${patch[field]!}`)
        return assignments.length === 0
          ? Effect.void
          : sql`UPDATE users SET ${sql.csv(assignments)}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      }
    }
  })
)

export const RefreshTokenStoreLive = Layer.effect(
  RefreshTokenStore,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (t) =>
      sql`INSERT INTO refresh_tokens (token_hash, user_id, family_id, expires_at, user_agent, coarse_address)
          VALUES (${t.tokenHash}, ${t.userId}, ${t.familyId}, ${t.expiresAt}, ${t.client?.userAgent ?? null}, ${t.client?.coarseAddress ?? null})`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    find: (hash) =>
      findOne(
        "refresh token",
        RefreshTokenRow,
        sql`
        SELECT user_id, family_id, expires_at, rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = ${hash}`
      ).pipe(Effect.orDie),
    markRotated: (hash, at) =>
      sql`UPDATE refresh_tokens SET rotated_at = ${at}
          WHERE token_hash = ${hash} AND rotated_at IS NULL AND revoked_at IS NULL RETURNING token_hash`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),
    revokeFamily: (familyId, at) =>
      sql`UPDATE refresh_tokens SET revoked_at = ${at} WHERE family_id = ${familyId} AND revoked_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    revokeAllOfUser: (userId, at, keepFamily) =>
      sql`UPDATE refresh_tokens SET revoked_at = ${at} WHERE user_id = ${userId} AND revoked_at IS NULL
          ${keepFamily === undefined ? sql`` : sql`AND family_id <> ${keepFamily}`}`.pipe(Effect.asVoid, Effect.orDie),
    // A family is open while none of its rows is revoked and its newest row has not expired.
    listSessions: (userId, at) =>
      findAll(
        "open sessions",
        SessionRow,
        sql`SELECT DISTINCT ON (family_id) family_id AS id, first_value(created_at) OVER family AS opened_at,
            created_at AS last_used_at, expires_at, user_agent, coarse_address
          FROM refresh_tokens
          WHERE user_id = ${userId}
            AND family_id NOT IN (SELECT family_id FROM refresh_tokens WHERE user_id = ${userId} AND revoked_at IS NOT NULL)
          WINDOW family AS (PARTITION BY family_id ORDER BY created_at ASC)
          ORDER BY family_id, created_at DESC`
      ).pipe(
        Effect.map((rows) =>
          rows
            .filter((row) => row.expiresAt > at)
            .map(({ expiresAt: _, ...session }) => session)
            .sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime())
        ),
        Effect.orDie
      ),
    revokeSession: (userId, familyId, at) =>
      sql`UPDATE refresh_tokens SET revoked_at = ${at}
          WHERE user_id = ${userId} AND family_id = ${familyId} AND revoked_at IS NULL RETURNING token_hash`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  }))
)

export const OneTimeTokenStoreLive = Layer.effect(
  OneTimeTokenStore,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (t) =>
      sql`INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at, new_email)
          VALUES (${t.tokenHash}, ${t.userId}, ${t.purpose}, ${t.expiresAt}, ${t.newEmail ?? null})`.pipe(Effect.asVoid, Effect.orDie),
    consume: (hash, purpose, at) =>
      findOne(
        "consumed token",
        Schema.Struct({ userId: Schema.String }),
        sql`UPDATE one_time_tokens SET used_at = ${at}
          WHERE token_hash = ${hash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${at}
          RETURNING user_id`
      ).pipe(Effect.map(Option.map((row) => row.userId)), Effect.orDie),
    retireAll: (userId, purpose, at) =>
      sql`UPDATE one_time_tokens SET used_at = ${at} WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    consumeEmailChange: (hash, at) =>
      findOne(
        "consumed email change",
        Schema.Struct({ userId: Schema.String, newEmail: Schema.String }),
        sql`UPDATE one_time_tokens SET used_at = ${at}
          WHERE token_hash = ${hash} AND purpose = 'CHANGE_EMAIL' AND used_at IS NULL AND expires_at > ${at}
          RETURNING user_id, new_email::text AS new_email`
      ).pipe(Effect.orDie)
  }))
)

/** AES-256-GCM under a key derived from the app secret: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
const sealWith = (key: Buffer) => ({
  seal: (plain: string) => {
    const iv = crypto.randomBytes(12)
    const cipher = crypto.createCipheriv("aes-256-gcm", key, iv)
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
    return ["v1", iv, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".")
  },
  open: (sealed: string) => {
    const [version, iv, tag, body] = sealed.split(".")
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("two-factor secret: unknown format")
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
  }
})

const TwoFactorRow = Schema.Struct({
  secretEncrypted: Schema.String,
  enabledAt: Schema.NullOr(Schema.DateFromSelf),
  lastStep: Schema.NullOr(Schema.Number)
})

/** Two-step login's tables (migrations/0029_trust.sql): the secret encrypted, codes and challenges as digests. */
export const TwoFactorStoreLive = Layer.effect(
  TwoFactorStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const box = sealWith(yield* derivedKey("two-factor-secrets"))
    /**
     * A secret sealed under another app secret (JWT_SECRET changed) opens as "": no code matches it,
     * so the account stays protected and signs in with a recovery code (then enrols again).
     */
    const readable = (sealed: string) => {
      try {
        return box.open(sealed)
      } catch {
        return ""
      }
    }
    return {
      find: (userId) =>
        findOne(
          "two-factor secret",
          TwoFactorRow,
          sql`SELECT secret_encrypted, enabled_at, last_step FROM two_factor_secrets WHERE user_id = ${userId}`
        ).pipe(
          Effect.map(Option.map((row) => ({ secret: readable(row.secretEncrypted), enabledAt: row.enabledAt, lastStep: row.lastStep }))),
          Effect.orDie
        ),
      begin: (userId, secret) =>
        sql`INSERT INTO two_factor_secrets AS t (user_id, secret_encrypted) VALUES (${userId}, ${box.seal(secret)})
            ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = excluded.secret_encrypted, last_step = NULL, created_at = now()
            WHERE t.enabled_at IS NULL
            RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      enable: (userId, at, step, digests) =>
        Effect.gen(function* () {
          const rows = yield* sql`UPDATE two_factor_secrets SET enabled_at = ${at}, last_step = ${step}
            WHERE user_id = ${userId} AND enabled_at IS NULL RETURNING user_id`
          if (rows.length !== 1) return false
          yield* sql`DELETE FROM two_factor_recovery_codes WHERE user_id = ${userId}`
          if (digests.length > 0)
            yield* sql`INSERT INTO two_factor_recovery_codes ${sql.insert(digests.map((codeHash) => ({ user_id: userId, code_hash: codeHash })))}`
          return true
        }).pipe(Effect.orDie),
      useStep: (userId, step) =>
        sql`UPDATE two_factor_secrets SET last_step = ${step}
            WHERE user_id = ${userId} AND (last_step IS NULL OR last_step < ${step}) RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      useRecoveryCode: (userId, digest, at) =>
        sql`UPDATE two_factor_recovery_codes SET used_at = ${at}
            WHERE user_id = ${userId} AND code_hash = ${digest} AND used_at IS NULL RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      recoveryCodesLeft: (userId) =>
        single(
          "recovery codes left",
          Schema.Struct({ n: Schema.Number }),
          sql`SELECT count(*) AS n FROM two_factor_recovery_codes WHERE user_id = ${userId} AND used_at IS NULL`
        ).pipe(
          Effect.map((row) => row.n),
          Effect.orDie
        ),
      remove: (userId) =>
        Effect.all([
          sql`DELETE FROM two_factor_recovery_codes WHERE user_id = ${userId}`,
          sql`DELETE FROM two_factor_secrets WHERE user_id = ${userId}`
        ]).pipe(Effect.asVoid, Effect.orDie),
      insertChallenge: (c) =>
        sql`INSERT INTO two_factor_challenges (token_hash, user_id, time_zone, expires_at)
            VALUES (${c.tokenHash}, ${c.userId}, ${c.timeZone}, ${c.expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
      findChallenge: (hash, at) =>
        findOne(
          "two-factor challenge",
          Schema.Struct({ userId: Schema.String, timeZone: Schema.NullOr(Schema.String) }),
          sql`SELECT user_id, time_zone FROM two_factor_challenges WHERE token_hash = ${hash} AND used_at IS NULL AND expires_at > ${at}`
        ).pipe(Effect.orDie),
      consumeChallenge: (hash, at) =>
        sql`UPDATE two_factor_challenges SET used_at = ${at}
            WHERE token_hash = ${hash} AND used_at IS NULL AND expires_at > ${at} RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    }
  })
)

export const IdentityPostgresAdapters = Layer.mergeAll(UserRepositoryLive, RefreshTokenStoreLive, OneTimeTokenStoreLive, TwoFactorStoreLive)
