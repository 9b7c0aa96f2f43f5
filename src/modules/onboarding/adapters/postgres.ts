import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { ApplicationPending } from "../domain"
import { type ApplicationListRow, type ApplicationRecord, ApplicationRepository, type DocumentRecord, type NewDocument } from "../ports"

const applicationColumns = (sql: SqlClient.SqlClient) => sql.unsafe(`
  a.id, a.user_id AS "userId", a.status, a.skills, a.experience, a.motivation,
  to_char(a.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", a.rejection_reason AS "rejectionReason",
  a.rejection_count AS "rejectionCount", a.max_attempts AS "maxAttempts", a.next_submission_date AS "nextSubmissionDate",
  a.submitted_at AS "submittedAt", a.reviewed_at AS "reviewedAt", a.reviewed_by AS "reviewedBy",
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`)

const documentColumns = (sql: SqlClient.SqlClient) => sql.unsafe(`
  d.id, d.application_id AS "applicationId", d.slot, d.type, d.file_name AS "fileName", d.storage_key AS "storageKey",
  d.content_type AS "contentType", d.size_bytes AS "size", d.is_verified AS "isVerified",
  d.verification_notes AS "verificationNotes", d.verified_at AS "verifiedAt", d.verified_by AS "verifiedBy", d.created_at AS "createdAt"`)

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { cause?: { code?: string } }).cause?.code === "23505"

export const ApplicationRepositoryLive = Layer.effect(
  ApplicationRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const one = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])
    const insertDocuments = (applicationId: string, documents: ReadonlyArray<NewDocument>) =>
      Effect.forEach(
        documents,
        (d) =>
          sql`INSERT INTO application_documents (application_id, slot, type, file_name, storage_key, content_type, size_bytes)
              VALUES (${applicationId}, ${d.slot}, ${d.type}, ${d.fileName}, ${d.storageKey}, ${d.contentType}, ${d.size})`,
        { discard: true }
      )
    return {
      findById: (id) =>
        sql<ApplicationRecord>`SELECT ${applicationColumns(sql)} FROM provider_applications a WHERE a.id = ${id}`.pipe(
          Effect.map(one),
          Effect.orDie
        ),
      findByUser: (userId) =>
        sql<ApplicationRecord>`SELECT ${applicationColumns(sql)} FROM provider_applications a
          WHERE a.user_id = ${userId} ORDER BY a.created_at DESC LIMIT 1`.pipe(Effect.map(one), Effect.orDie),
      insert: (a, documents) =>
        Effect.gen(function*() {
          const [row] = yield* sql<ApplicationRecord>`
            INSERT INTO provider_applications AS a (user_id, skills, experience, motivation, date_of_birth, max_attempts, submitted_at)
            VALUES (${a.userId}, ${a.skills}, ${a.experience}, ${a.motivation}, ${a.dateOfBirth}::date, ${a.maxAttempts}, ${a.submittedAt})
            RETURNING ${applicationColumns(sql)}`
          yield* insertDocuments(row!.id, documents)
          return row!
        }).pipe(Effect.catchAll((error) => (isUniqueViolation(error) ? Effect.fail(ApplicationPending) : Effect.die(error)))),
      resubmit: (id, expected, change) =>
        sql`UPDATE provider_applications SET status = 'PENDING', skills = ${change.skills}, experience = ${change.experience},
              motivation = ${change.motivation}, date_of_birth = ${change.dateOfBirth}::date, next_submission_date = NULL,
              submitted_at = ${change.submittedAt}, updated_at = now()
            WHERE id = ${id} AND status = 'REJECTED' AND rejection_count = ${expected} AND rejection_count < max_attempts
            RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      replaceDocuments: (applicationId, documents) =>
        Effect.gen(function*() {
          if (documents.length === 0) return []
          const slots = documents.map((d) => d.slot)
          const removed = yield* sql<{ storageKey: string }>`
            DELETE FROM application_documents WHERE application_id = ${applicationId} AND slot = ANY (${slots}::text[])
            RETURNING storage_key AS "storageKey"`
          yield* insertDocuments(applicationId, documents)
          return removed.map((r) => r.storageKey)
        }).pipe(Effect.orDie),
      approve: (id, reviewerId, at) =>
        sql`UPDATE provider_applications SET status = 'APPROVED', reviewed_at = ${at}, reviewed_by = ${reviewerId}, updated_at = now()
            WHERE id = ${id} AND status = 'PENDING' RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      reject: (id, decision, reviewerId, at) =>
        sql`UPDATE provider_applications SET status = 'REJECTED', rejection_reason = ${decision.rejectionReason},
              rejection_count = ${decision.rejectionCount}, next_submission_date = ${decision.nextSubmissionDate},
              reviewed_at = ${at}, reviewed_by = ${reviewerId}, updated_at = now()
            WHERE id = ${id} AND status = 'PENDING' RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      documentsOf: (applicationId) =>
        sql<DocumentRecord>`SELECT ${documentColumns(sql)} FROM application_documents d WHERE d.application_id = ${applicationId}
          ORDER BY array_position(ARRAY['identityDocument', 'addressDocument', 'bankDocument', 'profilePicture'], d.slot)`.pipe(Effect.orDie),
      findDocument: (id) =>
        sql<DocumentRecord>`SELECT ${documentColumns(sql)} FROM application_documents d WHERE d.id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      verifyDocument: (id, decision, reviewerId, at) =>
        sql<DocumentRecord>`
          UPDATE application_documents AS d SET is_verified = ${decision.isVerified}, verification_notes = ${decision.notes},
            verified_at = ${decision.isVerified === null ? null : at}, verified_by = ${decision.isVerified === null ? null : reviewerId}
          WHERE d.id = ${id} RETURNING ${documentColumns(sql)}`.pipe(Effect.map(one), Effect.orDie),
      list: (query) =>
        Effect.gen(function*() {
          const conditions = [sql`true`]
          if (query.status !== undefined) conditions.push(sql`a.status = ${query.status}`)
          if (query.search !== undefined && query.search !== "") {
            const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
            conditions.push(sql`(u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern} OR u.email ILIKE ${pattern}
              OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern} OR (u.last_name || ' ' || u.first_name) ILIKE ${pattern})`)
          }
          const where = sql.and(conditions)
          const rows = yield* sql<ApplicationRecord & { firstName: string; lastName: string; email: string; phoneNumber: string; documentCount: number }>`
            SELECT ${applicationColumns(sql)}, u.first_name AS "firstName", u.last_name AS "lastName", u.email, u.phone_number AS "phoneNumber",
              (SELECT count(*)::int FROM application_documents d WHERE d.application_id = a.id) AS "documentCount"
            FROM provider_applications a JOIN users u ON u.id = a.user_id
            WHERE ${where}
            ORDER BY a.submitted_at DESC, a.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
          const [count] = yield* sql<{ n: number }>`
            SELECT count(*)::int AS n FROM provider_applications a JOIN users u ON u.id = a.user_id WHERE ${where}`
          return {
            total: count?.n ?? 0,
            rows: rows.map(({ firstName, lastName, email, phoneNumber, documentCount, ...record }): ApplicationListRow => ({
              ...record,
              documentCount,
              applicant: { id: record.userId, firstName, lastName, email, phoneNumber }
            }))
          }
        }).pipe(Effect.orDie)
    }
  })
)

export const OnboardingPostgresAdapters = ApplicationRepositoryLive
