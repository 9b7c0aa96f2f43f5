import type { User } from "../identity/domain"
import type { AdminApplicationView, AdminDocumentView, ApplicantView, ApplicationRowView, ApplicationView, DocumentView } from "./contract"
import { type ApplicationState, resubmissionOf } from "./domain"
import type { ApplicationListRow, ApplicationRecord, DocumentRecord } from "./ports"

// Onboarding records turned into the contract's views (contract.ts), by the handlers.

const resubmissionView = (app: ApplicationState, now: Date) => {
  const r = resubmissionOf(app, now)
  return {
    resubmissionState: r.state,
    canResubmit: r.state === "CAN_RESUBMIT",
    isFinallyRefused: r.state === "FINALLY_REFUSED",
    daysRemaining: r.state === "COOLDOWN" ? r.daysRemaining : 0
  }
}

const toDocumentView = (d: DocumentRecord): typeof DocumentView.Type => ({
  id: d.id,
  slot: d.slot,
  type: d.type,
  fileName: d.fileName,
  contentType: d.contentType,
  size: d.size,
  isVerified: d.isVerified,
  replacementRequested: d.replacementRequestedAt !== null,
  replacementReason: d.replacementReason,
  createdAt: d.createdAt
})

export const toAdminDocumentView = (d: DocumentRecord): typeof AdminDocumentView.Type => ({
  ...toDocumentView(d),
  notes: d.verificationNotes,
  verifiedAt: d.verifiedAt,
  verifiedBy: d.verifiedBy,
  fileUrl: `/api/admin/documents/${d.id}/file`
})

const common = (a: ApplicationRecord, documentCount: number, now: Date) => ({
  id: a.id,
  status: a.status,
  skills: a.skills,
  experience: a.experience,
  motivation: a.motivation,
  dateOfBirth: a.dateOfBirth,
  rejectionReason: a.rejectionReason,
  rejectionCount: a.rejectionCount,
  maxAttempts: a.maxAttempts,
  nextSubmissionDate: a.nextSubmissionDate,
  ...resubmissionView(a, now),
  submittedAt: a.submittedAt,
  reviewedAt: a.reviewedAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
  documentCount
})

export const toApplicationView = (
  detail: { readonly application: ApplicationRecord; readonly documents: ReadonlyArray<DocumentRecord> },
  now: Date
): typeof ApplicationView.Type => ({
  ...common(detail.application, detail.documents.length, now),
  documents: detail.documents.map(toDocumentView)
})

export const toApplicantView = (u: User): typeof ApplicantView.Type => ({
  id: u.id,
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  phoneNumber: u.phoneNumber,
  role: u.role,
  preferredLanguage: u.preferredLanguage,
  active: u.isActive,
  isEmailVerified: u.isEmailVerified,
  createdAt: u.createdAt
})

export const toAdminApplicationView = (
  detail: { readonly application: ApplicationRecord; readonly documents: ReadonlyArray<DocumentRecord>; readonly applicant: User },
  now: Date
): typeof AdminApplicationView.Type => ({
  ...common(detail.application, detail.documents.length, now),
  reviewedBy: detail.application.reviewedBy,
  user: toApplicantView(detail.applicant),
  documents: detail.documents.map(toAdminDocumentView)
})

export const toApplicationRowView = (row: ApplicationListRow, now: Date): typeof ApplicationRowView.Type => ({
  id: row.id,
  status: row.status,
  rejectionCount: row.rejectionCount,
  maxAttempts: row.maxAttempts,
  nextSubmissionDate: row.nextSubmissionDate,
  ...resubmissionView(row, now),
  submittedAt: row.submittedAt,
  createdAt: row.createdAt,
  documentCount: row.documentCount,
  user: row.applicant
})
