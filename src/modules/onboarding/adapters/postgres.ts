import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { findAll, findOne, single } from "../../../platform/rows"
import { ApplicationPending, ApplicationStatuses, DocumentSlots, DocumentTypes } from "../domain"
import { type ApplicationListRow, ApplicationRepository, type NewDocument } from "../ports"

const applicationColumns = (sql: SqlClient.SqlClient) =>
  sql.unsafe(`
  a.id, a.user_id, a.status, a.skills, a.experience, a.motivation,
  to_char(a.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, a.rejection_reason, a.rejection_count, a.max_attempts,
  a.next_submission_date, a.submitted_at, a.reviewed_at, a.reviewed_by, a.created_at, a.updated_at`)

const documentColumns = (sql: SqlClient.SqlClient) =>
  sql.unsafe(`
  d.id, d.application_id, d.slot, d.type, d.file_name, d.storage_key, d.content_type, d.size_bytes AS size, d.is_verified,
  d.verification_notes, d.verified_at, d.verified_by, d.replacement_requested_at, d.replacement_reason, d.created_at`)

// Rows as decoded (camelCase keys and int8 counts: see platform/database.ts).
const ApplicationRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  status: Schema.Literal(...ApplicationStatuses),
  skills: Schema.String,
  experience: Schema.String,
  motivation: Schema.String,
  dateOfBirth: Schema.NullOr(Schema.String),
  rejectionReason: Schema.NullOr(Schema.String),
  rejectionCount: Schema.Number,
  maxAttempts: Schema.Number,
  nextSubmissionDate: Schema.NullOr(Schema.DateFromSelf),
  submittedAt: Schema.DateFromSelf,
  reviewedAt: Schema.NullOr(Schema.DateFromSelf),
  reviewedBy: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
const DocumentRow = Schema.Struct({
  id: Schema.String,
  applicationId: Schema.String,
  slot: Schema.Literal(...DocumentSlots),
  type: Schema.Literal(...DocumentTypes),
  fileName: Schema.String,
  storageKey: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  isVerified: Schema.NullOr(Schema.Boolean),
  verificationNotes: Schema.NullOr(Schema.String),
  verifiedAt: Schema.NullOr(Schema.DateFromSelf),
  verifiedBy: Schema.NullOr(Schema.String),
  replacementRequestedAt: Schema.NullOr(Schema.DateFromSelf),
  replacementReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
})
const ApplicationListItemRow = Schema.extend(
  ApplicationRow,
  Schema.Struct({
    firstName: Schema.String,
    lastName: Schema.String,
    email: Schema.String,
    phoneNumber: Schema.String,
    documentCount: Schema.Number
  })
)

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { cause?: { code?: string } }).cause?.code === "23505"

export const ApplicationRepositoryLive = Layer.effect(
  ApplicationRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
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
        findOne("application", ApplicationRow, sql`SELECT ${applicationColumns(sql)} FROM provider_applications a WHERE a.id = ${id}`).pipe(
          Effect.orDie
        ),
      findByUser: (userId) =>
        findOne(
          "user's application",
          ApplicationRow,
          sql`SELECT ${applicationColumns(sql)} FROM provider_applications a
          WHERE a.user_id = ${userId} ORDER BY a.created_at DESC LIMIT 1`
        ).pipe(Effect.orDie),
      insert: (a, documents) =>
        Effect.gen(function* () {
          const row = yield* single(
            "new application",
            ApplicationRow,
            sql`
            INSERT INTO provider_applications AS a (user_id, skills, experience, motivation, date_of_birth, max_attempts, submitted_at)
            VALUES (${a.userId}, ${a.skills}, ${a.experience}, ${a.motivation}, ${a.dateOfBirth}::date, ${a.maxAttempts}, ${a.submittedAt})
            RETURNING ${applicationColumns(sql)}`
          )
          yield* insertDocuments(row.id, documents)
          return row
        }).pipe(Effect.catchAll((error) => (isUniqueViolation(error) ? Effect.fail(ApplicationPending) : Effect.die(error)))),
      resubmit: (id, expected, change) =>
        sql`UPDATE provider_applications SET status = 'PENDING', skills = ${change.skills}, experience = ${change.experience},
              motivation = ${change.motivation}, date_of_birth = ${change.dateOfBirth}::date, next_submission_date = NULL,
              submitted_at = ${change.submittedAt}, updated_at = now()
            WHERE id = ${id} AND status = 'REJECTED' AND rejection_count = ${expected} AND rejection_count < max_attempts
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      replaceDocuments: (applicationId, documents) =>
        Effect.gen(function* () {
          if (documents.length === 0) return []
          const slots = documents.map((d) => d.slot)
          const removed = yield* findAll(
            "replaced documents",
            Schema.Struct({ storageKey: Schema.String }),
            sql`
            DELETE FROM application_documents WHERE application_id = ${applicationId} AND slot = ANY (${slots}::text[])
            RETURNING storage_key`
          )
          yield* insertDocuments(applicationId, documents)
          return removed.map((r) => r.storageKey)
        }).pipe(Effect.orDie),
      approve: (id, reviewerId, at) =>
        sql`UPDATE provider_applications SET status = 'APPROVED', reviewed_at = ${at}, reviewed_by = ${reviewerId}, updated_at = now()
            WHERE id = ${id} AND status = 'PENDING' RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      reject: (id, decision, reviewerId, at) =>
        sql`UPDATE provider_applications SET status = 'REJECTED', rejection_reason = ${decision.rejectionReason},
              rejection_count = ${decision.rejectionCount}, next_submission_date = ${decision.nextSubmissionDate},
              reviewed_at = ${at}, reviewed_by = ${reviewerId}, updated_at = now()
            WHERE id = ${id} AND status = 'PENDING' RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      documentsOf: (applicationId) =>
        findAll(
          "application's documents",
          DocumentRow,
          sql`SELECT ${documentColumns(sql)} FROM application_documents d WHERE d.application_id = ${applicationId}
          ORDER BY array_position(ARRAY['identityDocument', 'addressDocument', 'bankDocument', 'profilePicture'], d.slot)`
        ).pipe(Effect.orDie),
      findDocument: (id) =>
        findOne("document", DocumentRow, sql`SELECT ${documentColumns(sql)} FROM application_documents d WHERE d.id = ${id}`).pipe(
          Effect.orDie
        ),
      verifyDocument: (id, decision, reviewerId, at) =>
        findOne(
          "verified document",
          DocumentRow,
          sql`
          UPDATE application_documents AS d SET is_verified = ${decision.isVerified}, verification_notes = ${decision.notes},
            verified_at = ${decision.isVerified === null ? null : at}, verified_by = ${decision.isVerified === null ? null : reviewerId},
            replacement_requested_at = NULL, replacement_reason = NULL
          WHERE d.id = ${id} RETURNING ${documentColumns(sql)}`
        ).pipe(Effect.orDie),
      requestReplacement: (id, reason, reviewerId, at) =>
        findOne(
          "document asked again",
          DocumentRow,
          sql`
          UPDATE application_documents AS d SET is_verified = false, verification_notes = ${reason}, verified_at = ${at},
            verified_by = ${reviewerId}, replacement_requested_at = ${at}, replacement_reason = ${reason}
          WHERE d.id = ${id} RETURNING ${documentColumns(sql)}`
        ).pipe(Effect.orDie),
      list: (query) =>
        Effect.gen(function* () {
          const conditions = [sql`true`]
          if (query.status !== undefined) conditions.push(sql`a.status = ${query.status}`)
          if (query.search !== undefined && query.search !== "") {
            const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
            conditions.push(sql`(u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern} OR u.email ILIKE ${pattern}
              OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern} OR (u.last_name || ' ' || u.first_name) ILIKE ${pattern})`)
          }
          const where = sql.and(conditions)
          const rows = yield* findAll(
            "applications page",
            ApplicationListItemRow,
            sql`
            SELECT ${applicationColumns(sql)}, u.first_name, u.last_name, u.email::text AS email, u.phone_number,
              (SELECT count(*) FROM application_documents d WHERE d.application_id = a.id) AS document_count
            FROM provider_applications a JOIN users u ON u.id = a.user_id
            WHERE ${where}
            ORDER BY a.submitted_at DESC, a.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
          )
          const count = yield* single(
            "applications count",
            Schema.Struct({ n: Schema.Number }),
            sql`
            SELECT count(*) AS n FROM provider_applications a JOIN users u ON u.id = a.user_id WHERE ${where}`
          )
          return {
            total: count.n,
            rows: rows.map(
              ({ firstName, lastName, email, phoneNumber, documentCount, ...record }): ApplicationListRow => ({
                ...record,
                documentCount,
                applicant: { id: record.userId, firstName, lastName, email, phoneNumber }
              })
            )
          }
        }).pipe(Effect.orDie)
    }
  })
)

export const OnboardingPostgresAdapters = ApplicationRepositoryLive
