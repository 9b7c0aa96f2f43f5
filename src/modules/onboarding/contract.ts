import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart } from "@effect/platform"
import { Schema } from "effect"
import { ApplicationId, DocumentId } from "../../platform/ids"
import { Ok, PageParams, Pagination, Payload, PayloadLongText, PayloadText, PathId } from "../../platform/http/schemas"
import { multipartLimits } from "../../platform/upload-limits"
// The contract file, not the index: identity's index loads its handlers, which load the app's HttpApi (a cycle).
import { LanguageSchema, Role } from "../identity/contract"
import { Authentication } from "../../platform/http/authentication"
import { ApplicationStatuses, DocumentSlots, DocumentTypes, ResubmissionStates } from "./rules"

/** An application's or a document's `:id`: a malformed one answers their 404, as an unknown one (domain.ts's ApplicationNotFound, DocumentNotFound). */
const ApplicationIdParam = PathId(ApplicationId, { code: "APPLICATION_NOT_FOUND", key: "onboarding.notFound" })
const DocumentIdParam = PathId(DocumentId, { code: "DOCUMENT_NOT_FOUND", key: "onboarding.documentNotFound" })

// The module's HTTP contract: schemas, endpoints, groups. Pure (no server code): the UI imports its
// types. The views are built in views.ts.

// ---- Views -----------------------------------------------------------------------------------

const Nullable = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)

/** Where a rejected application stands, for the labels "definitively refused", "N days remaining", "can resubmit". */
const resubmissionFields = {
  resubmissionState: Schema.Literal(...ResubmissionStates),
  canResubmit: Schema.Boolean,
  isFinallyRefused: Schema.Boolean,
  /** Whole days (rounded up) until nextSubmissionDate while in COOLDOWN; 0 otherwise. */
  daysRemaining: Schema.Number
}

export const DocumentView = Schema.Struct({
  id: Schema.String,
  slot: Schema.Literal(...DocumentSlots),
  type: Schema.Literal(...DocumentTypes),
  fileName: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  /** null: pending; true: verified; false: rejected. */
  isVerified: Nullable(Schema.Boolean),
  /** An admin asked for this document again: the applicant sends a new one (PUT .../my-application/documents/{slot}). */
  replacementRequested: Schema.Boolean,
  /** What the admin said is wrong with it (while asked again). */
  replacementReason: Nullable(Schema.String),
  createdAt: Schema.Date
})

export const AdminDocumentView = Schema.Struct({
  ...DocumentView.fields,
  notes: Nullable(Schema.String),
  verifiedAt: Nullable(Schema.Date),
  verifiedBy: Nullable(Schema.String),
  /** GET with the admin's bearer token (binary). */
  fileUrl: Schema.String
})

const applicationFields = {
  id: Schema.String,
  status: Schema.Literal(...ApplicationStatuses),
  skills: Schema.String,
  experience: Schema.String,
  motivation: Schema.String,
  dateOfBirth: Nullable(Schema.String),
  rejectionReason: Nullable(Schema.String),
  rejectionCount: Schema.Number,
  maxAttempts: Schema.Number,
  nextSubmissionDate: Nullable(Schema.Date),
  ...resubmissionFields,
  submittedAt: Schema.Date,
  reviewedAt: Nullable(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  documentCount: Schema.Number
}

/** The applicant's own view (verification notes are for admins only). */
export const ApplicationView = Schema.Struct({ ...applicationFields, documents: Schema.Array(DocumentView) })

export const ApplicantView = Schema.Struct({
  id: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  email: Schema.String,
  phoneNumber: Schema.String,
  role: Role,
  preferredLanguage: LanguageSchema,
  active: Schema.Boolean,
  isEmailVerified: Schema.Boolean,
  createdAt: Schema.Date
})

export const AdminApplicationView = Schema.Struct({
  ...applicationFields,
  reviewedBy: Nullable(Schema.String),
  user: ApplicantView,
  documents: Schema.Array(AdminDocumentView)
})

export const ApplicationRowView = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal(...ApplicationStatuses),
  rejectionCount: Schema.Number,
  maxAttempts: Schema.Number,
  nextSubmissionDate: Nullable(Schema.Date),
  ...resubmissionFields,
  submittedAt: Schema.Date,
  createdAt: Schema.Date,
  documentCount: Schema.Number,
  user: Schema.Struct({
    id: Schema.String,
    firstName: Schema.String,
    lastName: Schema.String,
    email: Schema.String,
    phoneNumber: Schema.String
  })
})

// ---- Requests --------------------------------------------------------------------------------

/** The application form (multipart/form-data). Files: JPG, PNG or PDF (profile picture JPG or PNG), 5 MB each. */
export const ApplicationForm = Schema.Struct({
  skills: Schema.String,
  experience: Schema.String,
  motivation: Schema.String,
  /** YYYY-MM-DD; optional when the profile already has one. */
  dateOfBirth: Schema.optional(Schema.String),
  identityDocumentType: Schema.optional(Schema.Literal("IDENTITY_CARD", "PASSPORT", "DRIVERS_LICENSE")),
  addressDocumentType: Schema.optional(Schema.Literal("UTILITY_BILL", "RENTAL_AGREEMENT", "BANK_STATEMENT")),
  bankDocumentType: Schema.optional(Schema.Literal("BANK_RIB", "BANK_CHECK_SAMPLE", "BANK_ACCOUNT_INFO", "BANK_STATEMENT")),
  identityDocument: Multipart.SingleFileSchema,
  addressDocument: Multipart.SingleFileSchema,
  bankDocument: Multipart.SingleFileSchema,
  profilePicture: Multipart.SingleFileSchema
})
/** A document asked again (multipart/form-data): the file in the part named by its slot, its type optionally in `<slot>Type`. */
export const ReplacementForm = Schema.Struct({
  identityDocument: Schema.optional(Multipart.SingleFileSchema),
  identityDocumentType: Schema.optional(Schema.Literal("IDENTITY_CARD", "PASSPORT", "DRIVERS_LICENSE")),
  addressDocument: Schema.optional(Multipart.SingleFileSchema),
  addressDocumentType: Schema.optional(Schema.Literal("UTILITY_BILL", "RENTAL_AGREEMENT", "BANK_STATEMENT")),
  bankDocument: Schema.optional(Multipart.SingleFileSchema),
  bankDocumentType: Schema.optional(Schema.Literal("BANK_RIB", "BANK_CHECK_SAMPLE", "BANK_ACCOUNT_INFO", "BANK_STATEMENT")),
  profilePicture: Schema.optional(Multipart.SingleFileSchema)
})
export const FormTextFields = [
  "skills",
  "experience",
  "motivation",
  "dateOfBirth",
  "identityDocumentType",
  "addressDocumentType",
  "bankDocumentType"
] as const

const MyApplication = Schema.Struct({ application: Nullable(ApplicationView) })
const AdminApplication = Schema.Struct({ application: AdminApplicationView })
const Binary = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" })
const Text = Schema.optional(Schema.NullOr(PayloadText))
const LongText = Schema.optional(Schema.NullOr(PayloadLongText))

// ---- Groups ----------------------------------------------------------------------------------

export class ProviderApplicationsApi extends HttpApiGroup.make("providerApplications")
  .add(HttpApiEndpoint.get("myApplication", "/my-application").addSuccess(Ok(MyApplication)))
  .add(
    HttpApiEndpoint.post("submit", "/submit")
      .setPayload(HttpApiSchema.MultipartStream(ApplicationForm, multipartLimits(4)))
      .addSuccess(Ok(Schema.Struct({ application: ApplicationView })), { status: 201 })
  )
  .add(
    HttpApiEndpoint.put("resubmit", "/my-application")
      .setPayload(HttpApiSchema.MultipartStream(Schema.partial(ApplicationForm), multipartLimits(4)))
      .addSuccess(Ok(Schema.Struct({ application: ApplicationView })))
  )
  .add(
    HttpApiEndpoint.put("replaceDocument")`/my-application/documents/${HttpApiSchema.param("slot", Schema.String)}`
      .setPayload(HttpApiSchema.MultipartStream(ReplacementForm, multipartLimits(1)))
      .addSuccess(Ok(Schema.Struct({ application: ApplicationView })))
  )
  .add(HttpApiEndpoint.patch("approve")`/${ApplicationIdParam}/approve`.addSuccess(Ok(AdminApplication)))
  .add(
    HttpApiEndpoint.patch("reject")`/${ApplicationIdParam}/reject`
      .setPayload(Payload({ rejectionReason: LongText }))
      .addSuccess(Ok(AdminApplication))
  )
  .middleware(Authentication)
  .prefix("/provider-applications") {}

export class AdminApplicationsApi extends HttpApiGroup.make("adminApplications")
  .add(
    HttpApiEndpoint.get("list", "/applications")
      .setUrlParams(
        Schema.Struct({
          search: Schema.optional(Schema.String),
          status: Schema.optional(Schema.String),
          ...PageParams
        })
      )
      .addSuccess(Ok(Schema.Struct({ applications: Schema.Array(ApplicationRowView), pagination: Pagination })))
  )
  .add(HttpApiEndpoint.get("get")`/applications/${ApplicationIdParam}`.addSuccess(Ok(AdminApplication)))
  .add(
    HttpApiEndpoint.patch("verifyDocument")`/documents/${DocumentIdParam}/verify`
      .setPayload(Payload({ isVerified: Schema.optional(Schema.NullOr(Schema.Boolean)), notes: LongText }))
      .addSuccess(Ok(Schema.Struct({ document: AdminDocumentView })))
  )
  .add(
    HttpApiEndpoint.patch("requestReplacement")`/documents/${DocumentIdParam}/request-replacement`
      .setPayload(Payload({ reason: LongText }))
      .addSuccess(Ok(Schema.Struct({ document: AdminDocumentView })))
  )
  .add(HttpApiEndpoint.get("documentFile")`/documents/${DocumentIdParam}/file`.addSuccess(Binary))
  .middleware(Authentication)
  .prefix("/admin") {}
