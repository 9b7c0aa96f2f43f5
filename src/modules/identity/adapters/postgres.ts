import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { EmailTaken, type Role, type User, type UserWithPassword } from "../domain"
import { OneTimeTokenStore, RefreshTokenStore, UserRepository } from "../ports"
import type { Language } from "../../../platform/messages"

const userColumns = (sql: SqlClient.SqlClient) => sql`
  id, email, first_name AS "firstName", last_name AS "lastName", phone_number AS "phoneNumber", role,
  is_email_verified AS "isEmailVerified", is_active AS "isActive", preferred_language AS "preferredLanguage",
  created_at AS "createdAt"`

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { cause?: { code?: string } }).cause?.code === "23505"

export const UserRepositoryLive = Layer.effect(
  UserRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const one = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])
    // Built once: findById runs on every authenticated request.
    const selected = userColumns(sql)
    return {
      findById: (id) =>
        sql<User>`SELECT ${selected} FROM users WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      // A revoked row of the family means the session was ended (revocation marks every row of it).
      findInSession: (id, sessionId) =>
        sql<User & { sessionEnded: boolean }>`SELECT ${selected}, EXISTS (
            SELECT 1 FROM refresh_tokens WHERE family_id = ${sessionId} AND user_id = users.id AND revoked_at IS NOT NULL
          ) AS "sessionEnded" FROM users WHERE id = ${id}`.pipe(
          Effect.map((rows) => one(rows).pipe(Option.map(({ sessionEnded, ...user }) => ({ user: user as User, sessionEnded })))),
          Effect.orDie
        ),
      findByEmail: (email) =>
        sql<UserWithPassword>`SELECT ${selected}, password_hash AS "passwordHash" FROM users WHERE email = ${email}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      insert: (a) =>
        sql<User>`INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language)
          VALUES (${a.email}, ${a.passwordHash}, ${a.firstName}, ${a.lastName}, ${a.phoneNumber}, ${a.role}, ${a.isEmailVerified}, ${a.preferredLanguage})
          RETURNING ${selected}`.pipe(
          Effect.map((rows) => rows[0]!),
          Effect.catchAll((error) => (isUniqueViolation(error) ? Effect.fail(EmailTaken) : Effect.die(error)))
        ),
      markEmailVerified: (id) =>
        sql`UPDATE users SET is_email_verified = true, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setPasswordHash: (id, hash) =>
        sql`UPDATE users SET password_hash = ${hash}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findPasswordHash: (id) =>
        sql<{ passwordHash: string }>`SELECT password_hash AS "passwordHash" FROM users WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.passwordHash)),
          Effect.orDie
        ),
      setPreferredLanguage: (id, language: Language) =>
        sql`UPDATE users SET preferred_language = ${language}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setRole: (id, role: Role) =>
        sql`UPDATE users SET role = ${role}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setActive: (id, active) =>
        sql`UPDATE users SET is_active = ${active}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      updateAccount: (id, patch) => {
        const columns = { firstName: "first_name", lastName: "last_name", phoneNumber: "phone_number", preferredLanguage: "preferred_language" } as const
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
      sql`INSERT INTO refresh_tokens (token_hash, user_id, family_id, expires_at)
          VALUES (${t.tokenHash}, ${t.userId}, ${t.familyId}, ${t.expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
    find: (hash) =>
      sql<{ userId: string; familyId: string; expiresAt: Date; rotatedAt: Date | null; revokedAt: Date | null }>`
        SELECT user_id AS "userId", family_id AS "familyId", expires_at AS "expiresAt", rotated_at AS "rotatedAt", revoked_at AS "revokedAt"
        FROM refresh_tokens WHERE token_hash = ${hash}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),
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
          ${keepFamily === undefined ? sql`` : sql`AND family_id <> ${keepFamily}`}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
  }))
)

export const OneTimeTokenStoreLive = Layer.effect(
  OneTimeTokenStore,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (t) =>
      sql`INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at)
          VALUES (${t.tokenHash}, ${t.userId}, ${t.purpose}, ${t.expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
    consume: (hash, purpose, at) =>
      sql<{ userId: string }>`UPDATE one_time_tokens SET used_at = ${at}
          WHERE token_hash = ${hash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${at}
          RETURNING user_id AS "userId"`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.userId)), Effect.orDie),
    retireAll: (userId, purpose, at) =>
      sql`UPDATE one_time_tokens SET used_at = ${at} WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
  }))
)

export const IdentityPostgresAdapters = Layer.mergeAll(UserRepositoryLive, RefreshTokenStoreLive, OneTimeTokenStoreLive)
