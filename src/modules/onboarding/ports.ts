import { Context, type Effect, type Option } from "effect"
import type { Conflict } from "../../platform/errors"
import type { ApplicationState, ApplicationStatus, DocumentSlot, DocumentType } from "./domain"

export interface ApplicationRecord extends ApplicationState {
  readonly id: string
  readonly userId: string
  readonly skills: string
  readonly experience: string
  readonly motivation: string
  readonly dateOfBirth: string | null
  readonly rejectionReason: string | null
  readonly submittedAt: Date
  readonly reviewedAt: Date | null
  readonly reviewedBy: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface DocumentRecord {
  readonly id: string
  readonly applicationId: string
  readonly slot: DocumentSlot
  readonly type: DocumentType
  /** The applicant's file name, as display text only (files are stored under generated keys). */
  readonly fileName: string
  readonly storageKey: string
  readonly contentType: string
  readonly size: number
  readonly isVerified: boolean | null
  readonly verificationNotes: string | null
  readonly verifiedAt: Date | null
  readonly verifiedBy: string | null
  /** Set when an admin asked for this document again (unreadable...): the applicant replaces it, the application stays PENDING. */
  readonly replacementRequestedAt: Date | null
  /** What the admin told the applicant about it (set with replacementRequestedAt). */
  readonly replacementReason: string | null
  readonly createdAt: Date
}

export type NewDocument = Pick<DocumentRecord, "slot" | "type" | "fileName" | "storageKey" | "contentType" | "size">

export interface Applicant {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly phoneNumber: string
}

export interface ApplicationListQuery {
  /** Matched against the applicant's first name, last name, full name and email (case-insensitive). */
  readonly search?: string | undefined
  readonly status?: ApplicationStatus | undefined
  readonly limit: number
  readonly offset: number
}

export interface ApplicationListRow extends ApplicationRecord {
  readonly applicant: Applicant
  readonly documentCount: number
}

export interface ApplicationRepositoryShape {
  readonly findById: (id: string) => Effect.Effect<Option.Option<ApplicationRecord>>
  /** The user's application (at most one: see README, "One application per user"). */
  readonly findByUser: (userId: string) => Effect.Effect<Option.Option<ApplicationRecord>>
  /** Fails with Conflict when the user already has an open (PENDING) application. */
  readonly insert: (
    application: Pick<ApplicationRecord, "userId" | "skills" | "experience" | "motivation" | "dateOfBirth" | "maxAttempts" | "submittedAt">,
    documents: ReadonlyArray<NewDocument>
  ) => Effect.Effect<ApplicationRecord, Conflict>
  /**
   * Puts a REJECTED application back to PENDING with its edited text, provided nobody changed it
   * since it was read (same rejectionCount); false otherwise.
   */
  readonly resubmit: (
    id: string,
    expectedRejectionCount: number,
    change: Pick<ApplicationRecord, "skills" | "experience" | "motivation" | "dateOfBirth" | "submittedAt">
  ) => Effect.Effect<boolean>
  /** Replaces the documents of the given slots; answers the storage keys of the replaced ones. */
  readonly replaceDocuments: (applicationId: string, documents: ReadonlyArray<NewDocument>) => Effect.Effect<ReadonlyArray<string>>
  /** PENDING to APPROVED; false when it was not PENDING. */
  readonly approve: (id: string, reviewerId: string | null, at: Date) => Effect.Effect<boolean>
  /** PENDING to REJECTED with the decision's figures; false when it was not PENDING. */
  readonly reject: (
    id: string,
    decision: { readonly rejectionReason: string; readonly rejectionCount: number; readonly nextSubmissionDate: Date | null },
    reviewerId: string | null,
    at: Date
  ) => Effect.Effect<boolean>
  readonly documentsOf: (applicationId: string) => Effect.Effect<ReadonlyArray<DocumentRecord>>
  readonly findDocument: (id: string) => Effect.Effect<Option.Option<DocumentRecord>>
  readonly verifyDocument: (
    id: string,
    decision: { readonly isVerified: boolean | null; readonly notes: string | null },
    reviewerId: string | null,
    at: Date
  ) => Effect.Effect<Option.Option<DocumentRecord>>
  /** Marks the document rejected and asked again, with the reason (also its notes). */
  readonly requestReplacement: (
    id: string,
    reason: string,
    reviewerId: string | null,
    at: Date
  ) => Effect.Effect<Option.Option<DocumentRecord>>
  /** Newest submissions first. */
  readonly list: (
    query: ApplicationListQuery
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<ApplicationListRow>; readonly total: number }>
}
export class ApplicationRepository extends Context.Tag("onboarding/ApplicationRepository")<
  ApplicationRepository,
  ApplicationRepositoryShape
>() {}
