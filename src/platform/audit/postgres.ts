import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { newId, now } from "../clock"
import { findAll, single } from "../rows"
import { type AuditAction, type AuditData, type AuditSubjectType, AuditTrail } from "./port"

const AuditRow = Schema.Struct({
  id: Schema.String,
  actorId: Schema.String,
  // The codes' lists are the back-office's (administration/rules.ts), which the platform names by type only;
  // only `record`, typed by them, writes these columns.
  action: Schema.String,
  subjectType: Schema.String,
  subjectId: Schema.String,
  // jsonb comes back parsed, its keys as stored.
  before: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  after: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  createdAt: Schema.DateFromSelf,
  total: Schema.Number
})
const Count = Schema.Struct({ n: Schema.Number })

const json = (data: AuditData | null) => (data === null ? null : JSON.stringify(data))

/**
 * The audit log in PostgreSQL (table `audit_log`, migration 0026). `record` runs on the ambient
 * SqlClient connection, so inside a `Transactional.run` it is part of that transaction.
 */
export const AuditTrailPostgres = Layer.effect(
  AuditTrail,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    record: (entry) =>
      Effect.gen(function* () {
        const id = yield* newId
        const at = yield* now
        yield* sql`
          INSERT INTO audit_log (id, actor_id, action, subject_type, subject_id, before, after, created_at)
          VALUES (${id}, ${entry.actorId}, ${entry.action}, ${entry.subject.type}, ${entry.subject.id},
                  ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb, ${at})`
      }).pipe(Effect.orDie),

    list: (filter) =>
      Effect.gen(function* () {
        const conditions = [sql`true`]
        if (filter.action !== undefined) conditions.push(sql`action = ${filter.action}`)
        if (filter.actorId !== undefined) conditions.push(sql`actor_id = ${filter.actorId}`)
        if (filter.subjectType !== undefined) conditions.push(sql`subject_type = ${filter.subjectType}`)
        if (filter.subjectId !== undefined) conditions.push(sql`subject_id = ${filter.subjectId}`)
        if (filter.from !== undefined) conditions.push(sql`created_at >= ${filter.from}`)
        if (filter.to !== undefined) conditions.push(sql`created_at < ${filter.to}`)
        const where = sql.and(conditions)
        const rows = yield* findAll(
          "audit log page",
          AuditRow,
          sql`
            SELECT id, actor_id, action, subject_type, subject_id, before, after, created_at, count(*) OVER () AS total
            FROM audit_log
            WHERE ${where}
            ORDER BY created_at DESC, id DESC
            LIMIT ${filter.limit} OFFSET ${filter.offset}`
        )
        const total =
          rows.length > 0
            ? rows[0]!.total
            : (yield* single("audit log count", Count, sql`SELECT count(*) AS n FROM audit_log WHERE ${where}`)).n
        return {
          total,
          rows: rows.map(({ action, subjectType, subjectId, total: _total, before, after, ...row }) => ({
            ...row,
            action: action as AuditAction,
            subject: { type: subjectType as AuditSubjectType, id: subjectId },
            before: before as AuditData | null,
            after: after as AuditData | null
          }))
        }
      }).pipe(Effect.orDie)
  }))
)
