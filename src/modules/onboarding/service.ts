import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import {
  type Conflict,
  type Forbidden,
  invalid,
  issue,
  type NotFound,
  type PayloadTooLarge,
  type UnsupportedMediaType,
  type ValidationFailed
} from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { newStorageKey, removeAll, Storage } from "../../platform/storage"
import { Transactional } from "../../platform/transaction"
import { AuditTrail, CLI_OPERATOR_ID } from "../../platform/audit/port"
import {
  checkFile,
  displayName,
  type FileType,
  type IncomingFile,
  isAbsent,
  normalizeFile,
  type DecodeFailure
} from "../../platform/uploads"
import { InsufficientRights, ProfileRepository, type Role, type User, UserRepository } from "../identity"
import { Mailer } from "../notifications"
import {
  ApplicationNotFound,
  type ApplicationInput,
  type ApplicationStatus,
  ConcurrentChange,
  decideApprove,
  decideReject,
  decideReplacement,
  decideReplacementRequest,
  decideResubmit,
  decideSubmit,
  DocumentNotFound,
  type DocumentSlot,
  DocumentSlots,
  isStatus,
  missingFiles,
  resubmissionOf,
  SlotFormats,
  SlotTypes,
  validateApplicationForm,
  validateVerification
} from "./domain"
import { approvalMail, documentRequestedMail, rejectionMail } from "./mails"
import { type ApplicationListRow, type ApplicationRecord, ApplicationRepository, type DocumentRecord, type NewDocument } from "./ports"

/** Who decides on applications: an admin (id recorded as reviewer), or an operator at the CLI (id null). */
export interface Reviewer {
  readonly id: string | null
  readonly role: Role
}
export const Operator: Reviewer = { id: null, role: "ADMIN" }

export interface ApplicationDetail {
  readonly application: ApplicationRecord
  readonly documents: ReadonlyArray<DocumentRecord>
}

export interface AdminApplicationDetail extends ApplicationDetail {
  readonly applicant: User
}

export type UploadError = DecodeFailure | ValidationFailed
export type Files = Partial<Record<DocumentSlot, IncomingFile>>

export class ProviderApplications extends Context.Tag("onboarding/ProviderApplications")<
  ProviderApplications,
  {
    readonly mine: (user: User) => Effect.Effect<Option.Option<ApplicationDetail>>
    /** The refusals of submit/resubmit that do not depend on the form (checked before a body is read). */
    readonly precheck: (user: User, mode: "create" | "edit") => Effect.Effect<void, Conflict | Forbidden | NotFound>
    readonly submit: (
      user: User,
      input: ApplicationInput,
      files: Files
    ) => Effect.Effect<ApplicationDetail, UploadError | Conflict | Forbidden>
    readonly resubmit: (
      user: User,
      input: ApplicationInput,
      files: Files
    ) => Effect.Effect<ApplicationDetail, UploadError | Conflict | Forbidden | NotFound>
    readonly approve: (reviewer: Reviewer, id: string) => Effect.Effect<AdminApplicationDetail, Forbidden | NotFound | Conflict>
    readonly reject: (
      reviewer: Reviewer,
      id: string,
      reason: string | undefined
    ) => Effect.Effect<AdminApplicationDetail, Forbidden | NotFound | Conflict | ValidationFailed>
    readonly list: (
      reviewer: Reviewer,
      query: { readonly search?: string | undefined; readonly status?: string | undefined; readonly page: number; readonly limit: number }
    ) => Effect.Effect<{ readonly rows: ReadonlyArray<ApplicationListRow>; readonly total: number }, Forbidden | ValidationFailed>
    readonly get: (reviewer: Reviewer, id: string) => Effect.Effect<AdminApplicationDetail, Forbidden | NotFound>
    readonly verifyDocument: (
      reviewer: Reviewer,
      documentId: string,
      input: { readonly isVerified?: unknown; readonly notes?: string | null | undefined }
    ) => Effect.Effect<DocumentRecord, Forbidden | NotFound | ValidationFailed>
    /** An admin asks for one document again (unreadable...): the application stays PENDING, the applicant is mailed. */
    readonly requestReplacement: (
      reviewer: Reviewer,
      documentId: string,
      reason: string | null | undefined
    ) => Effect.Effect<DocumentRecord, Forbidden | NotFound | Conflict | ValidationFailed>
    /** The refusals of a replacement that do not depend on the file (checked before a body is read). */
    readonly precheckReplacement: (user: User, slot: string) => Effect.Effect<void, Conflict | NotFound>
    /** The applicant sends the document asked again, in its slot: no cooldown, no attempt counted, still PENDING. */
    readonly replaceDocument: (
      user: User,
      slot: string,
      input: { readonly type?: string | undefined },
      file: IncomingFile | undefined
    ) => Effect.Effect<ApplicationDetail, UploadError | Conflict | NotFound>
    readonly documentFile: (
      reviewer: Reviewer,
      documentId: string
    ) => Effect.Effect<{ readonly document: DocumentRecord; readonly bytes: Uint8Array }, Forbidden | NotFound>
  }
>() {}

export const ProviderApplicationsLive = Layer.effect(
  ProviderApplications,
  Effect.gen(function* () {
    const applications = yield* ApplicationRepository
    const users = yield* UserRepository
    const profiles = yield* ProfileRepository
    const storage = yield* Storage
    const mailer = yield* Mailer
    const tx = yield* Transactional
    const audit = yield* AuditTrail
    const config = yield* AppConfig

    const requireAdmin = (reviewer: Reviewer) => (reviewer.role === "ADMIN" ? Effect.void : Effect.fail(InsufficientRights))
    /** An application by its id; the CLI's approve and reject pass it as typed, so a malformed one is checked here too. */
    const findApplication = (id: string) =>
      isUuid(id)
        ? Effect.flatMap(
            applications.findById(id.toLowerCase()),
            Option.match({ onNone: () => Effect.fail(ApplicationNotFound), onSome: Effect.succeed })
          )
        : Effect.fail(ApplicationNotFound)
    /** A document by its id, a UUID (decoded at the HTTP edge, its only caller). */
    const findDocument = (id: string) =>
      Effect.flatMap(
        applications.findDocument(id.toLowerCase()),
        Option.match({ onNone: () => Effect.fail(DocumentNotFound), onSome: Effect.succeed })
      )
    const detailOf = (application: ApplicationRecord) =>
      Effect.map(applications.documentsOf(application.id), (documents): ApplicationDetail => ({ application, documents }))
    const adminDetailOf = (application: ApplicationRecord) =>
      Effect.gen(function* () {
        const detail = yield* detailOf(application)
        const applicant = yield* users.findById(application.userId)
        if (Option.isNone(applicant)) return yield* Effect.dieMessage(`application ${application.id} without its user`)
        return { ...detail, applicant: applicant.value } satisfies AdminApplicationDetail
      })

    /**
     * Checks every present file (empty 422, over 5 MB 413, wrong content 415) and re-encodes images:
     * nothing is written before every file of the request passed.
     */
    const prepareFiles = (files: Files, types: Partial<Record<DocumentSlot, NewDocument["type"]>>, mode: "create" | "edit") =>
      Effect.gen(function* () {
        const present = DocumentSlots.filter((slot) => !isAbsent(files[slot]))
        const prepared: Array<Omit<NewDocument, "storageKey"> & { readonly bytes: Uint8Array }> = []
        for (const slot of present) {
          const file = files[slot]!
          const unsupported = slot === "profilePicture" ? "upload.unsupportedPicture" : "upload.unsupportedDocument"
          const type: FileType = yield* checkFile(slot, file, { allowed: SlotFormats[slot], unsupported })
          const bytes = yield* normalizeFile(slot, type, file.bytes, unsupported)
          prepared.push({
            slot,
            type: types[slot] ?? SlotTypes[slot][0]!,
            fileName: displayName(file.name, `${slot}.${type === "application/pdf" ? "pdf" : type === "image/png" ? "png" : "jpg"}`),
            contentType: type,
            size: bytes.length,
            bytes
          })
        }
        const missing = missingFiles(present, mode)
        if (missing.length > 0) return yield* invalid(missing)
        return prepared
      })

    /** Writes the prepared files under generated keys, then runs `write`; any failure removes them again. */
    const storeThen = <A, E>(
      prepared: ReadonlyArray<Omit<NewDocument, "storageKey"> & { readonly bytes: Uint8Array }>,
      write: (documents: ReadonlyArray<NewDocument>) => Effect.Effect<A, E>
    ) => {
      const documents = prepared.map(({ bytes: _, ...d }) => ({ ...d, storageKey: newStorageKey("applications") }))
      return Effect.forEach(prepared, (p, i) => storage.put(documents[i]!.storageKey, p.bytes), { discard: true }).pipe(
        Effect.zipRight(write(documents)),
        Effect.onError(() =>
          removeAll(
            storage,
            documents.map((d) => d.storageKey)
          )
        )
      )
    }

    /** The "verified identity" mark follows the decision on the identity document (verified: set; anything else: cleared). */
    const markIdentity = (userId: string, document: DocumentRecord, at: Date) =>
      document.slot === "identityDocument" ? profiles.setIdentityVerified(userId, document.isVerified === true ? at : null) : Effect.void

    /** The caller's application and the document of `slot` when a replacement of it is allowed. */
    const replaceable = (user: User, slot: string) =>
      Effect.gen(function* () {
        const application = Option.getOrUndefined(yield* applications.findByUser(user.id))
        const document =
          application && (DocumentSlots as ReadonlyArray<string>).includes(slot)
            ? (yield* applications.documentsOf(application.id)).find((d) => d.slot === slot)
            : undefined
        yield* decideReplacement(application, document)
        return { application: application!, document: document! }
      })

    const recipientOf = (user: User) => ({ email: user.email, firstName: user.firstName, preferredLanguage: user.preferredLanguage })

    const precheck = (user: User, mode: "create" | "edit") =>
      Effect.gen(function* () {
        const existing = Option.getOrUndefined(yield* applications.findByUser(user.id))
        const at = yield* now
        if (mode === "create") yield* decideSubmit(user.role, existing, at)
        else yield* decideResubmit(user.role, existing, at)
      })

    return {
      precheck,

      mine: (user) =>
        Effect.flatMap(applications.findByUser(user.id), (found) =>
          Option.isNone(found) ? Effect.succeed(Option.none()) : Effect.map(detailOf(found.value), Option.some)
        ),

      submit: (user, input, files) =>
        Effect.gen(function* () {
          const at = yield* now
          const existing = yield* applications.findByUser(user.id)
          yield* decideSubmit(user.role, Option.getOrUndefined(existing), at)
          const profile = yield* profiles.find(user.id)
          const onRecord = { dateOfBirth: Option.getOrNull(Option.flatMapNullable(profile, (p) => p.dateOfBirth)) }
          const form = yield* validateApplicationForm(input, "create", onRecord, at)
          const prepared = yield* prepareFiles(files, form.types, "create")
          const record = yield* storeThen(prepared, (documents) =>
            tx.run(
              applications.insert(
                {
                  userId: user.id,
                  skills: form.skills!,
                  experience: form.experience!,
                  motivation: form.motivation!,
                  dateOfBirth: form.dateOfBirth ?? onRecord.dateOfBirth,
                  maxAttempts: config.applicationMaxAttempts,
                  submittedAt: at
                },
                documents
              )
            )
          )
          return yield* detailOf(record)
        }),

      resubmit: (user, input, files) =>
        Effect.gen(function* () {
          const at = yield* now
          const found = Option.getOrUndefined(yield* applications.findByUser(user.id))
          yield* decideResubmit(user.role, found, at)
          const current = found!
          const profile = yield* profiles.find(user.id)
          const onRecord = { dateOfBirth: current.dateOfBirth ?? Option.getOrNull(Option.flatMapNullable(profile, (p) => p.dateOfBirth)) }
          const form = yield* validateApplicationForm(input, "edit", onRecord, at)
          const prepared = yield* prepareFiles(files, form.types, "edit")
          const replaced = yield* storeThen(prepared, (documents) =>
            tx.run(
              Effect.gen(function* () {
                const changed = yield* applications.resubmit(current.id, current.rejectionCount, {
                  skills: form.skills ?? current.skills,
                  experience: form.experience ?? current.experience,
                  motivation: form.motivation ?? current.motivation,
                  dateOfBirth: form.dateOfBirth ?? onRecord.dateOfBirth,
                  submittedAt: at
                })
                if (!changed) return yield* ConcurrentChange
                // A new identity document is not verified yet: the mark goes until an admin verifies it.
                if (documents.some((d) => d.slot === "identityDocument")) yield* profiles.setIdentityVerified(user.id, null)
                return yield* applications.replaceDocuments(current.id, documents)
              })
            )
          )
          // The files of replaced documents go once the new ones are recorded.
          yield* removeAll(storage, replaced)
          return yield* detailOf(Option.getOrThrow(yield* applications.findById(current.id)))
        }),

      approve: (reviewer, id) =>
        Effect.gen(function* () {
          yield* requireAdmin(reviewer)
          const application = yield* findApplication(id)
          yield* decideApprove(application)
          const applicant = Option.getOrThrow(yield* users.findById(application.userId))
          const at = yield* now
          // The application's profile picture becomes the profile's identity photo (a copy: documents stay admin-only).
          const picture = (yield* applications.documentsOf(application.id)).find((d) => d.slot === "profilePicture")
          const pictureBytes = picture ? Option.getOrUndefined(yield* storage.get(picture.storageKey)) : undefined
          const photoKey = newStorageKey("profile-photos")
          if (pictureBytes) yield* storage.put(photoKey, pictureBytes)
          const replacedPhoto = yield* tx
            .run(
              Effect.gen(function* () {
                if (!(yield* applications.approve(application.id, reviewer.id, at))) return yield* ConcurrentChange
                yield* users.setRole(application.userId, "PROVIDER")
                yield* audit.record({
                  actorId: reviewer.id ?? CLI_OPERATOR_ID,
                  action: "APPLICATION_APPROVED",
                  subject: { type: "APPLICATION", id: application.id },
                  before: { status: application.status, applicantId: application.userId, role: applicant.role },
                  after: { status: "APPROVED", applicantId: application.userId, role: "PROVIDER" }
                })
                if (application.dateOfBirth) yield* profiles.setDateOfBirthIfMissing(application.userId, application.dateOfBirth)
                const replaced =
                  picture && pictureBytes
                    ? yield* profiles.setIdentityPhoto(application.userId, {
                        key: photoKey,
                        contentType: picture.contentType,
                        size: pictureBytes.length,
                        updatedAt: at
                      })
                    : Option.none<string>()
                yield* mailer.send(approvalMail(recipientOf(applicant), config))
                return replaced
              })
            )
            .pipe(Effect.onError(() => removeAll(storage, [photoKey])))
          yield* removeAll(storage, Option.toArray(replacedPhoto))
          return yield* adminDetailOf(Option.getOrThrow(yield* applications.findById(application.id)))
        }),

      reject: (reviewer, id, reason) =>
        Effect.gen(function* () {
          yield* requireAdmin(reviewer)
          const application = yield* findApplication(id)
          const at = yield* now
          const decision = yield* decideReject(application, reason, at, config.applicationCooldownDays)
          const applicant = Option.getOrThrow(yield* users.findById(application.userId))
          yield* tx.run(
            Effect.gen(function* () {
              if (!(yield* applications.reject(application.id, decision, reviewer.id, at))) return yield* ConcurrentChange
              yield* audit.record({
                actorId: reviewer.id ?? CLI_OPERATOR_ID,
                action: "APPLICATION_REJECTED",
                subject: { type: "APPLICATION", id: application.id },
                before: { status: application.status, rejectionCount: application.rejectionCount },
                after: {
                  status: decision.status,
                  rejectionCount: decision.rejectionCount,
                  reason: decision.rejectionReason,
                  nextSubmissionDate: decision.nextSubmissionDate?.toISOString() ?? null
                }
              })
              yield* mailer.send(
                rejectionMail(
                  recipientOf(applicant),
                  {
                    reason: decision.rejectionReason,
                    resubmission: resubmissionOf(decision, at),
                    attemptsLeft: Math.max(0, decision.maxAttempts - decision.rejectionCount),
                    timeZone: applicant.timeZone
                  },
                  config
                )
              )
            })
          )
          return yield* adminDetailOf(Option.getOrThrow(yield* applications.findById(application.id)))
        }),

      list: (reviewer, query) =>
        Effect.gen(function* () {
          yield* requireAdmin(reviewer)
          const status = query.status?.trim().toUpperCase()
          if (status !== undefined && status !== "" && status !== "ALL" && !isStatus(status)) {
            return yield* invalid([issue("status", "onboarding.statusInvalid")])
          }
          const search = query.search?.trim().slice(0, 200)
          return yield* applications.list({
            search: search === "" ? undefined : search,
            status: status === undefined || status === "" || status === "ALL" ? undefined : (status as ApplicationStatus),
            limit: query.limit,
            offset: (query.page - 1) * query.limit
          })
        }),

      get: (reviewer, id) => Effect.zipRight(requireAdmin(reviewer), Effect.flatMap(findApplication(id), adminDetailOf)),

      verifyDocument: (reviewer, documentId, input) =>
        Effect.gen(function* () {
          yield* requireAdmin(reviewer)
          const decision = yield* validateVerification(input)
          const document = yield* findDocument(documentId)
          const application = Option.getOrThrow(yield* applications.findById(document.applicationId))
          const at = yield* now
          return yield* tx.run(
            Effect.gen(function* () {
              const updated = yield* applications.verifyDocument(document.id, decision, reviewer.id, at)
              if (Option.isNone(updated)) return yield* DocumentNotFound
              yield* audit.record({
                actorId: reviewer.id ?? CLI_OPERATOR_ID,
                action: "DOCUMENT_VERIFIED",
                subject: { type: "DOCUMENT", id: document.id },
                before: {
                  applicationId: document.applicationId,
                  slot: document.slot,
                  isVerified: document.isVerified,
                  notes: document.verificationNotes
                },
                after: {
                  applicationId: document.applicationId,
                  slot: document.slot,
                  isVerified: decision.isVerified,
                  notes: decision.notes
                }
              })
              yield* markIdentity(application.userId, updated.value, at)
              return updated.value
            })
          )
        }),

      requestReplacement: (reviewer, documentId, reason) =>
        Effect.gen(function* () {
          yield* requireAdmin(reviewer)
          const document = yield* findDocument(documentId)
          const application = Option.getOrThrow(yield* applications.findById(document.applicationId))
          const trimmed = yield* decideReplacementRequest(application, reason)
          const applicant = Option.getOrThrow(yield* users.findById(application.userId))
          const at = yield* now
          return yield* tx.run(
            Effect.gen(function* () {
              const updated = yield* applications.requestReplacement(document.id, trimmed, reviewer.id, at)
              if (Option.isNone(updated)) return yield* DocumentNotFound
              yield* markIdentity(application.userId, updated.value, at)
              yield* audit.record({
                actorId: reviewer.id ?? CLI_OPERATOR_ID,
                action: "DOCUMENT_REPLACEMENT_REQUESTED",
                subject: { type: "DOCUMENT", id: document.id },
                before: { applicationId: document.applicationId, slot: document.slot, isVerified: document.isVerified },
                after: { applicationId: document.applicationId, slot: document.slot, isVerified: false, reason: trimmed }
              })
              yield* mailer.send(documentRequestedMail(recipientOf(applicant), { slot: document.slot, reason: trimmed }, config))
              return updated.value
            })
          )
        }),

      precheckReplacement: (user, slot) => Effect.asVoid(replaceable(user, slot)),

      replaceDocument: (user, slot, input, file) =>
        Effect.gen(function* () {
          const { application, document } = yield* replaceable(user, slot)
          const type = input.type?.trim().toUpperCase()
          if (type !== undefined && type !== "" && !(SlotTypes[document.slot] as ReadonlyArray<string>).includes(type)) {
            return yield* invalid([issue(`${document.slot}Type`, "onboarding.documentTypeInvalid")])
          }
          const files: Files = file === undefined ? {} : { [document.slot]: file }
          const prepared = yield* prepareFiles(files, { [document.slot]: type || document.type }, "edit")
          if (prepared.length === 0) return yield* invalid([issue(document.slot, "upload.required")])
          const replaced = yield* storeThen(prepared, (documents) =>
            tx.run(
              Effect.gen(function* () {
                // Re-read inside the transaction: an admin may have decided meanwhile.
                yield* replaceable(user, slot)
                return yield* applications.replaceDocuments(application.id, documents)
              })
            )
          )
          yield* removeAll(storage, replaced)
          return yield* detailOf(Option.getOrThrow(yield* applications.findById(application.id)))
        }),

      documentFile: (reviewer, documentId) =>
        Effect.gen(function* () {
          yield* requireAdmin(reviewer)
          const document = yield* findDocument(documentId)
          const bytes = yield* storage.get(document.storageKey)
          if (Option.isNone(bytes)) return yield* Effect.dieMessage(`document ${document.id}: its file ${document.storageKey} is missing`)
          return { document, bytes: bytes.value }
        })
    }
  })
)
