import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, single } from "../../../platform/rows"
import { BOOKED_STATUSES } from "../contact-details/rules"
import { ReportReasons, ReportStatuses } from "../rules"
import { PairBookings, type ReportRecord, SafetyRepository, type ReportTarget } from "../ports"

// Blocks, reports and the booking question of "private until booked" (issue 15), over PostgreSQL.

const Person = Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String })
const ReportRow = Schema.Struct({
  id: Schema.String,
  reason: Schema.Literal(...ReportReasons),
  details: Schema.String,
  status: Schema.Literal(...ReportStatuses),
  reporter: Person,
  reportedUser: Schema.Struct({ ...Person.fields, isActive: Schema.Boolean }),
  messageId: Schema.NullOr(Schema.String),
  message: Schema.NullOr(
    Schema.Struct({
      id: Schema.String,
      conversationId: Schema.String,
      senderId: Schema.String,
      content: Schema.String,
      createdAt: Schema.DateFromString,
      readAt: Schema.NullOr(Schema.DateFromString),
      hiddenAt: Schema.NullOr(Schema.DateFromString)
    })
  ),
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.DateFromSelf),
  decisionNote: Schema.String,
  createdAt: Schema.DateFromSelf
})
const WithTotal = Schema.extend(ReportRow, Schema.Struct({ total: Schema.Number }))
const BlockRow = Schema.Struct({ ...Person.fields, createdAt: Schema.DateFromSelf, total: Schema.Number })
const IdRow = Schema.Struct({ id: Schema.String })
const Count = Schema.Struct({ n: Schema.Number })
const At = Schema.Struct({ createdAt: Schema.DateFromSelf })
const Flag = Schema.Struct({ found: Schema.Boolean })
const BlockPair = Schema.Struct({ blocker: Schema.String, blocked: Schema.String })

const withoutTotal = ({ total: _, ...row }: typeof WithTotal.Type): ReportRecord => row

export const SafetyRepositoryLive = Layer.effect(
  SafetyRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    /** A report with both people and the message (as JSON: ISO dates decoded by the schema). */
    const reportSelect = sql.unsafe(`
      SELECT r.id, r.seq, r.reason, r.details, r.status, r.message_id, r.decided_by, r.decided_at, r.decision_note, r.created_at,
        json_build_object('id', a.id, 'firstName', a.first_name, 'lastName', a.last_name) AS reporter,
        json_build_object('id', b.id, 'firstName', b.first_name, 'lastName', b.last_name, 'isActive', b.is_active) AS reported_user,
        CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object('id', m.id, 'conversationId', m.conversation_id,
          'senderId', m.sender_id, 'content', m.content, 'createdAt', m.created_at, 'readAt', m.read_at, 'hiddenAt', m.hidden_at) END AS message
      FROM reports r
      JOIN users a ON a.id = r.reporter_id
      JOIN users b ON b.id = r.reported_user_id
      LEFT JOIN messages m ON m.id = r.message_id`)
    const findReport = (id: string) => findOne("report", ReportRow, sql`${reportSelect} WHERE r.id = ${id}`)
    const openReportOf = (target: ReportTarget) =>
      findOne(
        "open report",
        ReportRow,
        sql`${reportSelect} WHERE r.reporter_id = ${target.reporterId} AND r.reported_user_id = ${target.reportedUserId}
          AND r.message_id IS NOT DISTINCT FROM ${target.messageId}::uuid AND r.status = 'OPEN' ORDER BY r.seq LIMIT 1`
      )

    return {
      block: (blockerId, blockedId, at) =>
        Effect.gen(function* () {
          const inserted = yield* findAll(
            "block",
            At,
            sql`INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (${blockerId}, ${blockedId}, ${at})
            ON CONFLICT DO NOTHING RETURNING created_at`
          )
          if (inserted[0] !== undefined) return { created: true, createdAt: inserted[0].createdAt }
          const existing = yield* single(
            "existing block",
            At,
            sql`SELECT created_at FROM user_blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId}`
          )
          return { created: false, createdAt: existing.createdAt }
        }).pipe(Effect.orDie),
      unblock: (blockerId, blockedId) =>
        findAll(
          "unblock",
          IdRow,
          sql`DELETE FROM user_blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId} RETURNING blocker_id AS id`
        ).pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      blockedEitherWay: (a, b) =>
        single(
          "blocked pair",
          Flag,
          sql`SELECT EXISTS (SELECT 1 FROM user_blocks WHERE (blocker_id = ${a} AND blocked_id = ${b})
            OR (blocker_id = ${b} AND blocked_id = ${a})) AS found`
        ).pipe(
          Effect.map((r) => r.found),
          Effect.orDie
        ),
      blocksAround: (userId, others) =>
        others.length === 0
          ? Effect.succeed({ blockedByMe: new Set<string>(), blockingMe: new Set<string>() })
          : findAll(
              "blocks around",
              BlockPair,
              sql`SELECT blocker_id::text AS blocker, blocked_id::text AS blocked FROM user_blocks
              WHERE (blocker_id = ${userId} AND blocked_id = ANY (${others}::uuid[]))
                 OR (blocked_id = ${userId} AND blocker_id = ANY (${others}::uuid[]))`
            ).pipe(
              Effect.map((rows) => ({
                blockedByMe: new Set(rows.filter((r) => r.blocker === userId).map((r) => r.blocked)),
                blockingMe: new Set(rows.filter((r) => r.blocked === userId).map((r) => r.blocker))
              })),
              Effect.orDie
            ),
      blocksOf: (blockerId, page) =>
        Effect.gen(function* () {
          const rows = yield* findAll(
            "blocks",
            BlockRow,
            sql`SELECT u.id, u.first_name, u.last_name, b.created_at, count(*) OVER () AS total
            FROM user_blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = ${blockerId} ORDER BY b.created_at DESC, u.id LIMIT ${page.limit} OFFSET ${page.offset}`
          )
          const total =
            rows[0]?.total ??
            (yield* single("blocks count", Count, sql`SELECT count(*) AS n FROM user_blocks WHERE blocker_id = ${blockerId}`)).n
          return {
            rows: rows.map((r) => ({ user: { id: r.id, firstName: r.firstName, lastName: r.lastName }, createdAt: r.createdAt })),
            total
          }
        }).pipe(Effect.orDie),
      openReportOf: (target) => openReportOf(target).pipe(Effect.orDie),
      insertReport: (report) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // One reporter files one report at a time: a twin request waits here, then finds the first.
              yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`reports:${report.reporterId}`}, 0))`
              const open = yield* openReportOf(report)
              if (Option.isSome(open)) return { report: open.value, created: false }
              const { id } = yield* single(
                "new report",
                IdRow,
                sql`INSERT INTO reports (reporter_id, reported_user_id, message_id, reason, details, created_at)
                VALUES (${report.reporterId}, ${report.reportedUserId}, ${report.messageId}, ${report.reason}, ${report.details}, ${report.at})
                RETURNING id`
              )
              return { report: Option.getOrThrow(yield* findReport(id)), created: true }
            })
          )
          .pipe(Effect.orDie),
      findReport: (id) => findReport(id).pipe(Effect.orDie),
      reports: ({ limit, offset, status }) =>
        Effect.gen(function* () {
          const where = status === undefined ? sql`true` : sql`r.status = ${status}`
          const rows = yield* findAll(
            "reports",
            WithTotal,
            sql`SELECT q.*, count(*) OVER () AS total FROM (${reportSelect} WHERE ${where}) q
            ORDER BY q.seq DESC LIMIT ${limit} OFFSET ${offset}`
          )
          const total = rows[0]?.total ?? (yield* single("reports count", Count, sql`SELECT count(*) AS n FROM reports r WHERE ${where}`)).n
          return { rows: rows.map(withoutTotal), total }
        }).pipe(Effect.orDie),
      decide: (id, decision) =>
        Effect.gen(function* () {
          const changed = yield* findAll(
            "report decision",
            IdRow,
            sql`UPDATE reports SET status = ${decision.status}, decided_by = ${decision.decidedBy}, decided_at = ${decision.at},
              decision_note = ${decision.note}
            WHERE id = ${id} AND status = 'OPEN' RETURNING id`
          )
          return changed.length === 0 ? Option.none() : yield* findReport(id)
        }).pipe(Effect.orDie)
    }
  })
)

/** Bookings between a user and partners, read from booking's table (one read-only question, as administration's read models). */
export const PairBookingsLive = Layer.effect(
  PairBookings,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    bookedWith: (userId, partnerIds) =>
      partnerIds.length === 0
        ? Effect.succeed(new Set<string>())
        : findAll(
            "booked partners",
            IdRow,
            sql`SELECT DISTINCT CASE WHEN client_id = ${userId} THEN provider_id ELSE client_id END::text AS id
            FROM bookings
            WHERE status = ANY (${[...BOOKED_STATUSES]}::text[])
              AND ((client_id = ${userId} AND provider_id = ANY (${partnerIds}::uuid[]))
                OR (provider_id = ${userId} AND client_id = ANY (${partnerIds}::uuid[])))`
          ).pipe(
            Effect.map((rows) => new Set(rows.map((r) => r.id))),
            Effect.orDie
          )
  }))
)
