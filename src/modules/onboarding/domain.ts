import { Either } from "effect"
import { Conflict, type FieldIssue, Forbidden, invalid, issue, NotFound, type ValidationFailed } from "../../platform/errors"
import { dayParam } from "../../platform/messages"
import { type ApplicationStatus, ApplicationStatuses, type DocumentSlot, DocumentSlots, type DocumentType } from "./rules"
import { ageOn, MINIMUM_PROVIDER_AGE } from "../identity/profile/rules"

/**
 * Provider onboarding (spec admin-and-onboarding sections 3 to 5 and 9): the application to become
 * a provider, its documents, and the decisions on it. Pure functions only; the service applies them.
 */

export { type ApplicationStatus, ApplicationStatuses, type DocumentSlot, DocumentSlots, type DocumentType, DocumentTypes } from "./rules"

/** Which document types each slot accepts; the first is the default when the form names none. */
export const SlotTypes: Record<DocumentSlot, ReadonlyArray<DocumentType>> = {
  identityDocument: ["IDENTITY_CARD", "PASSPORT", "DRIVERS_LICENSE"],
  addressDocument: ["UTILITY_BILL", "RENTAL_AGREEMENT", "BANK_STATEMENT"],
  bankDocument: ["BANK_RIB", "BANK_CHECK_SAMPLE", "BANK_ACCOUNT_INFO", "BANK_STATEMENT"],
  profilePicture: ["PROFILE_PICTURE"]
}

/** File formats per slot, decided from the content: documents JPG, PNG or PDF; the profile picture JPG or PNG. */
export const SlotFormats: Record<DocumentSlot, ReadonlyArray<"image/jpeg" | "image/png" | "application/pdf">> = {
  identityDocument: ["image/jpeg", "image/png", "application/pdf"],
  addressDocument: ["image/jpeg", "image/png", "application/pdf"],
  bankDocument: ["image/jpeg", "image/png", "application/pdf"],
  profilePicture: ["image/jpeg", "image/png"]
}

export const DEFAULT_MAX_ATTEMPTS = 3
export const DEFAULT_COOLDOWN_DAYS = 7
export const LIMITS = { skills: 2000, experience: 5000, motivation: 5000, reason: 1000, notes: 1000 } as const

/** What the rules look at. */
export interface ApplicationState {
  readonly status: ApplicationStatus
  readonly rejectionCount: number
  readonly maxAttempts: number
  /** Set on rejection: the earliest moment of a resubmission. */
  readonly nextSubmissionDate: Date | null
}

// ---- Errors ----------------------------------------------------------------------------------

export const ApplicationNotFound = new NotFound({ code: "APPLICATION_NOT_FOUND", key: "onboarding.notFound" })
export const DocumentNotFound = new NotFound({ code: "DOCUMENT_NOT_FOUND", key: "onboarding.documentNotFound" })
export const AlreadyProvider = new Conflict({ code: "ALREADY_PROVIDER", key: "onboarding.alreadyProvider" })
export const ClientsOnly = new Forbidden({ code: "CLIENTS_ONLY", key: "onboarding.clientsOnly" })
export const ApplicationPending = new Conflict({ code: "APPLICATION_PENDING", key: "onboarding.alreadyPending" })
export const ApplicationApproved = new Conflict({ code: "APPLICATION_APPROVED", key: "onboarding.alreadyApproved" })
export const ApplicationRejected = new Conflict({ code: "APPLICATION_REJECTED", key: "onboarding.useResubmit" })
export const ApplicationNotPending = new Conflict({ code: "APPLICATION_NOT_PENDING", key: "onboarding.notPending" })
export const ReplacementNotRequested = new Conflict({ code: "REPLACEMENT_NOT_REQUESTED", key: "onboarding.replacementNotRequested" })
export const ReplacementNotPending = new Conflict({ code: "APPLICATION_NOT_PENDING", key: "onboarding.replacementNotPending" })
export const ConcurrentChange = new Conflict({ code: "CONCURRENT_CHANGE", key: "onboarding.concurrentChange" })
export const finallyRefused = (maxAttempts: number) =>
  new Forbidden({ code: "APPLICATION_FINALLY_REFUSED", key: "onboarding.finallyRefused", params: { maxAttempts: String(maxAttempts) } })
export const tooEarly = (until: Date, daysRemaining: number) =>
  new Conflict({
    code: "RESUBMISSION_TOO_EARLY",
    key: "onboarding.tooEarly",
    params: { date: dayParam(until), days: String(daysRemaining) }
  })

// ---- Resubmission ----------------------------------------------------------------------------

const DAY_MS = 86_400_000

export type Resubmission =
  | { readonly state: "NOT_REJECTED" }
  | { readonly state: "FINALLY_REFUSED" }
  | { readonly state: "COOLDOWN"; readonly until: Date; readonly daysRemaining: number }
  | { readonly state: "CAN_RESUBMIT" }

/**
 * Where a rejected application stands: finally refused once rejectionCount reaches maxAttempts;
 * otherwise waiting until nextSubmissionDate (daysRemaining rounded up), then free to resubmit.
 */
export const resubmissionOf = (app: ApplicationState, now: Date): Resubmission => {
  if (app.status !== "REJECTED") return { state: "NOT_REJECTED" }
  if (app.rejectionCount >= app.maxAttempts) return { state: "FINALLY_REFUSED" }
  if (app.nextSubmissionDate !== null && now.getTime() < app.nextSubmissionDate.getTime()) {
    return {
      state: "COOLDOWN",
      until: app.nextSubmissionDate,
      daysRemaining: Math.ceil((app.nextSubmissionDate.getTime() - now.getTime()) / DAY_MS)
    }
  }
  return { state: "CAN_RESUBMIT" }
}

export const canResubmit = (app: ApplicationState, now: Date) => resubmissionOf(app, now).state === "CAN_RESUBMIT"
export const isFinallyRefused = (app: ApplicationState) => app.status === "REJECTED" && app.rejectionCount >= app.maxAttempts

// ---- Decisions -------------------------------------------------------------------------------

type Role = "CLIENT" | "PROVIDER" | "ADMIN"

/** A first submission: only a client without an application may submit (one application per user). */
export const decideSubmit = (role: Role, existing: ApplicationState | undefined, now: Date): Either.Either<void, Conflict | Forbidden> => {
  if (role === "PROVIDER") return Either.left(AlreadyProvider)
  if (role !== "CLIENT") return Either.left(ClientsOnly)
  if (existing === undefined) return Either.void
  switch (existing.status) {
    case "PENDING":
      return Either.left(ApplicationPending)
    case "APPROVED":
      return Either.left(ApplicationApproved)
    case "REJECTED":
      return Either.left(
        resubmissionOf(existing, now).state === "FINALLY_REFUSED" ? finallyRefused(existing.maxAttempts) : ApplicationRejected
      )
  }
}

/** An edit and resubmission of the caller's application: only a rejected one, only when allowed. */
export const decideResubmit = (
  role: Role,
  existing: ApplicationState | undefined,
  now: Date
): Either.Either<ApplicationState, NotFound | Conflict | Forbidden> => {
  if (existing === undefined) return Either.left(ApplicationNotFound)
  if (role === "PROVIDER" || existing.status === "APPROVED")
    return Either.left(existing.status === "APPROVED" ? ApplicationApproved : AlreadyProvider)
  if (role !== "CLIENT") return Either.left(ClientsOnly)
  if (existing.status === "PENDING") return Either.left(ApplicationPending)
  const resubmission = resubmissionOf(existing, now)
  switch (resubmission.state) {
    case "FINALLY_REFUSED":
      return Either.left(finallyRefused(existing.maxAttempts))
    case "COOLDOWN":
      return Either.left(tooEarly(resubmission.until, resubmission.daysRemaining))
    default:
      return Either.right({ ...existing, status: "PENDING", nextSubmissionDate: null })
  }
}

export const decideApprove = (app: ApplicationState): Either.Either<ApplicationState, Conflict> =>
  app.status === "PENDING" ? Either.right({ ...app, status: "APPROVED" }) : Either.left(ApplicationNotPending)

/** Checks a rejection reason: required (not blank) and at most 1000 characters; answers it trimmed. */
export const checkReason = (reason: string | undefined): Either.Either<string, ValidationFailed> => {
  const trimmed = (reason ?? "").trim()
  if (trimmed === "") return Either.left(invalid([issue("rejectionReason", "onboarding.reasonRequired")]))
  if (trimmed.length > LIMITS.reason) return Either.left(invalid([issue("rejectionReason", "validation.tooLong")]))
  return Either.right(trimmed)
}

/**
 * A rejection: counts the attempt and, unless that was the last one, sets the cooldown before a
 * resubmission. The reason is checked first (422), then the status (409).
 */
export const decideReject = (
  app: ApplicationState,
  reason: string | undefined,
  now: Date,
  cooldownDays: number
): Either.Either<ApplicationState & { readonly rejectionReason: string }, ValidationFailed | Conflict> =>
  Either.flatMap(checkReason(reason), (rejectionReason) => {
    if (app.status !== "PENDING") return Either.left(ApplicationNotPending)
    const rejectionCount = app.rejectionCount + 1
    const final = rejectionCount >= app.maxAttempts
    return Either.right({
      ...app,
      status: "REJECTED" as const,
      rejectionCount,
      nextSubmissionDate: final ? null : new Date(now.getTime() + cooldownDays * DAY_MS),
      rejectionReason
    })
  })

// ---- A document asked again ----------------------------------------------------------------

/** What an admin tells the applicant about an unreadable document: required (not blank), at most 1000 characters. */
export const checkReplacementReason = (reason: string | null | undefined): Either.Either<string, ValidationFailed> => {
  const trimmed = (reason ?? "").trim()
  if (trimmed === "") return Either.left(invalid([issue("reason", "onboarding.replacementReasonRequired")]))
  if (trimmed.length > LIMITS.reason) return Either.left(invalid([issue("reason", "validation.tooLong")]))
  return Either.right(trimmed)
}

/**
 * An admin asks for one document again instead of rejecting: only while the application is PENDING
 * (it stays PENDING; no attempt is counted, no cooldown starts). The reason is checked first (422).
 */
export const decideReplacementRequest = (
  app: ApplicationState,
  reason: string | null | undefined
): Either.Either<string, ValidationFailed | Conflict> =>
  Either.flatMap(checkReplacementReason(reason), (trimmed) =>
    app.status === "PENDING" ? Either.right(trimmed) : Either.left(ReplacementNotPending)
  )

/**
 * The applicant sends the document asked again: their application must be PENDING and that slot's
 * document asked again (any other document is replaced by a resubmission after a rejection only).
 */
export const decideReplacement = (
  existing: ApplicationState | undefined,
  document: { readonly replacementRequestedAt: Date | null } | undefined
): Either.Either<void, NotFound | Conflict> => {
  if (existing === undefined) return Either.left(ApplicationNotFound)
  if (existing.status !== "PENDING") return Either.left(existing.status === "APPROVED" ? ApplicationApproved : ReplacementNotPending)
  if (document === undefined) return Either.left(DocumentNotFound)
  return document.replacementRequestedAt === null ? Either.left(ReplacementNotRequested) : Either.void
}

// ---- The form --------------------------------------------------------------------------------

export interface ApplicationInput {
  readonly skills?: string | undefined
  readonly experience?: string | undefined
  readonly motivation?: string | undefined
  readonly dateOfBirth?: string | undefined
  readonly identityDocumentType?: string | undefined
  readonly addressDocumentType?: string | undefined
  readonly bankDocumentType?: string | undefined
}

export interface ApplicationForm {
  readonly skills?: string
  readonly experience?: string
  readonly motivation?: string
  readonly dateOfBirth?: string
  readonly types: Partial<Record<DocumentSlot, DocumentType>>
}

/**
 * Validates the text of the form. On creation skills, experience and motivation are required; on an
 * edit a field that is sent must not be blank (one that is not sent keeps its value). The applicant
 * must be at least 18: the date of birth is taken from the form, else from what is on record.
 */
export const validateApplicationForm = (
  input: ApplicationInput,
  mode: "create" | "edit",
  onRecord: { readonly dateOfBirth: string | null },
  now: Date
): Either.Either<ApplicationForm, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const form: {
    skills?: string
    experience?: string
    motivation?: string
    dateOfBirth?: string
    types: Partial<Record<DocumentSlot, DocumentType>>
  } = {
    types: {}
  }
  for (const field of ["skills", "experience", "motivation"] as const) {
    const value = input[field]
    if (value === undefined && mode === "edit") continue
    const trimmed = (value ?? "").trim()
    if (trimmed === "") issues.push(issue(field, "validation.required"))
    else if (trimmed.length > LIMITS[field]) issues.push(issue(field, "validation.tooLong"))
    else form[field] = trimmed
  }
  const declared = input.dateOfBirth?.trim()
  const dateOfBirth = declared || onRecord.dateOfBirth
  if (!dateOfBirth) issues.push(issue("dateOfBirth", "validation.required"))
  else {
    const age = ageOn(dateOfBirth, now)
    if (age < 0) issues.push(issue("dateOfBirth", "profile.dateOfBirthInvalid"))
    else if (age < MINIMUM_PROVIDER_AGE) issues.push(issue("dateOfBirth", "profile.minimumAge"))
    else if (declared) form.dateOfBirth = declared
  }
  for (const slot of ["identityDocument", "addressDocument", "bankDocument"] as const) {
    const value = input[`${slot}Type`]?.trim().toUpperCase()
    if (value === undefined || value === "") continue
    if ((SlotTypes[slot] as ReadonlyArray<string>).includes(value)) form.types[slot] = value as DocumentType
    else issues.push(issue(`${slot}Type`, "onboarding.documentTypeInvalid"))
  }
  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right(form)
}

/** The files a submission must carry: all four on creation, none on an edit. */
export const missingFiles = (present: ReadonlyArray<DocumentSlot>, mode: "create" | "edit"): ReadonlyArray<FieldIssue> =>
  mode === "edit" ? [] : DocumentSlots.filter((slot) => !present.includes(slot)).map((slot) => issue(slot, "upload.required"))

// ---- Document verification -------------------------------------------------------------------

/** `isVerified` true (verified), false (rejected) or null (pending again); notes optional, trimmed. */
export const validateVerification = (input: {
  readonly isVerified?: unknown
  readonly notes?: string | null | undefined
}): Either.Either<{ readonly isVerified: boolean | null; readonly notes: string | null }, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  if (input.isVerified === undefined) issues.push(issue("isVerified", "validation.required"))
  else if (input.isVerified !== null && typeof input.isVerified !== "boolean")
    issues.push(issue("isVerified", "onboarding.isVerifiedInvalid"))
  const notes = (input.notes ?? "").trim()
  if (notes.length > LIMITS.notes) issues.push(issue("notes", "validation.tooLong"))
  return issues.length > 0
    ? Either.left(invalid(issues))
    : Either.right({ isVerified: input.isVerified as boolean | null, notes: notes === "" ? null : notes })
}

export const isStatus = (value: string): value is ApplicationStatus => (ApplicationStatuses as ReadonlyArray<string>).includes(value)
