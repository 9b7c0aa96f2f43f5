import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { UserRepository } from "../../identity"
import { ApplicationPending, DocumentSlots } from "../domain"
import { type ApplicationListRow, type ApplicationRecord, ApplicationRepository, type DocumentRecord } from "../ports"

/**
 * In-memory applications with the contracts of the Postgres adapter, including its one-open-application
 * constraint (needs an in-memory UserRepository for the list's applicants and search).
 */
export const OnboardingMemoryAdapters = Layer.unwrapEffect(
  Effect.gen(function* () {
    const users = yield* UserRepository
    const applications = new Map<string, ApplicationRecord>()
    const documents = new Map<string, DocumentRecord>()
    const update = (id: string, change: Partial<ApplicationRecord>) => {
      const current = applications.get(id)
      if (current) applications.set(id, { ...current, ...change, updatedAt: new Date() })
    }
    const documentsOf = (applicationId: string) =>
      [...documents.values()]
        .filter((d) => d.applicationId === applicationId)
        .sort((a, b) => DocumentSlots.indexOf(a.slot) - DocumentSlots.indexOf(b.slot))

    return Layer.succeed(ApplicationRepository, {
      findById: (id) => Effect.sync(() => Option.fromNullable(applications.get(id))),
      findByUser: (userId) =>
        Effect.sync(() =>
          Option.fromNullable(
            [...applications.values()].filter((a) => a.userId === userId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
          )
        ),
      insert: (a, docs) =>
        Effect.suspend(() => {
          if ([...applications.values()].some((x) => x.userId === a.userId && x.status === "PENDING"))
            return Effect.fail(ApplicationPending)
          const at = new Date()
          const record: ApplicationRecord = {
            ...a,
            id: crypto.randomUUID(),
            status: "PENDING",
            rejectionReason: null,
            rejectionCount: 0,
            nextSubmissionDate: null,
            reviewedAt: null,
            reviewedBy: null,
            createdAt: at,
            updatedAt: at
          }
          applications.set(record.id, record)
          for (const d of docs) {
            const id = crypto.randomUUID()
            documents.set(id, {
              ...d,
              id,
              applicationId: record.id,
              isVerified: null,
              verificationNotes: null,
              verifiedAt: null,
              verifiedBy: null,
              replacementRequestedAt: null,
              replacementReason: null,
              createdAt: at
            })
          }
          return Effect.succeed(record)
        }),
      resubmit: (id, expected, change) =>
        Effect.sync(() => {
          const current = applications.get(id)
          if (
            !current ||
            current.status !== "REJECTED" ||
            current.rejectionCount !== expected ||
            current.rejectionCount >= current.maxAttempts
          )
            return false
          update(id, { ...change, status: "PENDING", nextSubmissionDate: null })
          return true
        }),
      replaceDocuments: (applicationId, docs) =>
        Effect.sync(() => {
          const removed: Array<string> = []
          for (const d of documentsOf(applicationId)) {
            if (docs.some((n) => n.slot === d.slot)) {
              documents.delete(d.id)
              removed.push(d.storageKey)
            }
          }
          for (const d of docs) {
            const id = crypto.randomUUID()
            documents.set(id, {
              ...d,
              id,
              applicationId,
              isVerified: null,
              verificationNotes: null,
              verifiedAt: null,
              verifiedBy: null,
              replacementRequestedAt: null,
              replacementReason: null,
              createdAt: new Date()
            })
          }
          return removed
        }),
      approve: (id, reviewedBy, at) =>
        Effect.sync(() => {
          if (applications.get(id)?.status !== "PENDING") return false
          update(id, { status: "APPROVED", reviewedAt: at, reviewedBy })
          return true
        }),
      reject: (id, decision, reviewedBy, at) =>
        Effect.sync(() => {
          if (applications.get(id)?.status !== "PENDING") return false
          update(id, { status: "REJECTED", ...decision, reviewedAt: at, reviewedBy })
          return true
        }),
      documentsOf: (applicationId) => Effect.sync(() => documentsOf(applicationId)),
      findDocument: (id) => Effect.sync(() => Option.fromNullable(documents.get(id))),
      verifyDocument: (id, decision, reviewerId, at) =>
        Effect.sync(() => {
          const current = documents.get(id)
          if (!current) return Option.none()
          const next: DocumentRecord = {
            ...current,
            isVerified: decision.isVerified,
            verificationNotes: decision.notes,
            verifiedAt: decision.isVerified === null ? null : at,
            verifiedBy: decision.isVerified === null ? null : reviewerId,
            replacementRequestedAt: null,
            replacementReason: null
          }
          documents.set(id, next)
          return Option.some(next)
        }),
      requestReplacement: (id, reason, reviewerId, at) =>
        Effect.sync(() => {
          const current = documents.get(id)
          if (!current) return Option.none()
          const next: DocumentRecord = {
            ...current,
            isVerified: false,
            verificationNotes: reason,
            verifiedAt: at,
            verifiedBy: reviewerId,
            replacementRequestedAt: at,
            replacementReason: reason
          }
          documents.set(id, next)
          return Option.some(next)
        }),
      list: (query) =>
        Effect.gen(function* () {
          const rows: Array<ApplicationListRow> = []
          for (const a of applications.values()) {
            if (query.status !== undefined && a.status !== query.status) continue
            const user = Option.getOrUndefined(yield* users.findById(a.userId))
            if (!user) continue
            const search = query.search?.toLowerCase()
            const haystack = [
              user.firstName,
              user.lastName,
              `${user.firstName} ${user.lastName}`,
              `${user.lastName} ${user.firstName}`,
              user.email
            ]
            if (search && !haystack.some((text) => text.toLowerCase().includes(search))) continue
            rows.push({
              ...a,
              documentCount: documentsOf(a.id).length,
              applicant: {
                id: user.id,
                firstName: user.firstName,
                lastName: user.lastName,
                email: user.email,
                phoneNumber: user.phoneNumber
              }
            })
          }
          rows.sort((a, b) => b.submittedAt.getTime() - a.submittedAt.getTime() || (a.id < b.id ? 1 : -1))
          return { total: rows.length, rows: rows.slice(query.offset, query.offset + query.limit) }
        })
    })
  })
)
