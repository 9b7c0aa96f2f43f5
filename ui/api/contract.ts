// The API as the UI receives and sends it: the wire (Encoded) side of the server's contract schemas
// (src/modules/*/contract.ts: dates are ISO strings), so a change of a server schema fails the UI's
// type check. Type-only imports: none of the server's code reaches the bundle (test/ui/contract.test.ts);
// the literal lists come from the modules' rules.ts, which import nothing.

import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { PlaceView as PlaceViewSchema } from "../../src/modules/catalogue/places/contract"
import type { ExchangeRatesData } from "../../src/modules/catalogue/rates/contract"
import type {
  AdministrationApi,
  AdminBookingRowView,
  AdminBookingView,
  AdminBookingPaymentView,
  AdminServiceView,
  AdminUserView,
  AnalyticsView,
  AuditEntryView,
  DashboardView,
  FinancialStatsView
} from "../../src/modules/administration/contract"
import type {
  BookingData as BookingDataSchema,
  BookingListParams,
  BookingPage as BookingPageSchema,
  BookingPayload,
  BookingView,
  CalendarEventView,
  CheckoutAnswer as CheckoutAnswerSchema,
  CheckoutPayload,
  DisputeData as DisputeDataSchema,
  DisputeView,
  EarningsPage as EarningsPageSchema,
  PaymentEventView,
  ReceiptView,
  RescheduleData as RescheduleDataSchema,
  RescheduleView,
  ReviewPage as ReviewPageSchema,
  ReviewView as ServiceReviewView
} from "../../src/modules/booking/contract"
import type { AvailabilityPayload, AvailabilityView, SlotsView } from "../../src/modules/booking/availability/contract"
import type {
  Categories,
  CategoryView,
  PhotoOrderPayload,
  PhotosData as PhotosDataSchema,
  PhotoView,
  ReviewView,
  SearchData,
  SearchParams,
  ServiceData as ServiceDataSchema,
  ServiceDetail as ServiceDetailSchema,
  ServiceDetailData as ServiceDetailDataSchema,
  ServicePayload,
  Services,
  ServiceView
} from "../../src/modules/catalogue/contract"
import type {
  AuthApi,
  ChangeEmailPayload,
  EmailPayload,
  LoginAnswer as LoginAnswerSchema,
  LoginPayload,
  RegisterPayload,
  ResetPasswordPayload,
  SessionsData as SessionsDataSchema,
  SessionView,
  UpdatePasswordPayload,
  UserData as UserDataSchema,
  UserView
} from "../../src/modules/identity/contract"
import type { DeleteAccountPayload } from "../../src/modules/privacy/contract"
import type {
  AvatarView,
  BadgeView,
  OwnProfileView,
  ProfilePatchPayload,
  PublicProfileView
} from "../../src/modules/identity/profile/contract"
import type {
  AdminReportView,
  BlockView,
  ConversationPage as ConversationPageSchema,
  ConversationView,
  MessagePage as MessagePageSchema,
  MessageReceivedEvent,
  MessagesReadEvent,
  MessageView,
  ParticipantView,
  PresenceEvent,
  ReportView,
  UserTypingEvent
} from "../../src/modules/messaging/contract"
import type { ContactPayload, PreferencesData as PreferencesDataSchema, PreferencesView } from "../../src/modules/notifications/contract"
import type {
  AdminApplicationView,
  AdminDocumentView,
  ApplicationRowView,
  ApplicationView,
  DocumentView
} from "../../src/modules/onboarding/contract"
import type { ConnectStatusView } from "../../src/modules/payments/contract"
import type { Sort } from "../../src/modules/catalogue/rules"
import type { FailureEnvelope, OkEncoded, Pagination as PaginationSchema } from "../../src/platform/http/schemas"

export type { Language } from "../../src/platform/languages"
export type { AdministrationApi }
export type { AdminApplicationsApi, ProviderApplicationsApi } from "../../src/modules/onboarding/contract"
export type { BookingsApi, CalendarFeedApi, CancellationPolicyApi, EarningsApi, ReceiptsApi } from "../../src/modules/booking/contract"
export type { BlocksApi, ConversationsApi, ModerationApi, ReportsApi } from "../../src/modules/messaging/contract"
export {
  type ModerationAction,
  ModerationActions as MODERATION_ACTIONS,
  type ReportReason,
  ReportReasons as REPORT_REASONS,
  type ReportStatus,
  ReportStatuses as REPORT_STATUSES
} from "../../src/modules/messaging/rules"
export type { UsersApi } from "../../src/modules/identity/profile/contract"
export type { StripeConnectApi } from "../../src/modules/payments/contract"
export type { PlacesApi } from "../../src/modules/catalogue/places/contract"
export type { ExchangeRatesApi } from "../../src/modules/catalogue/rates/contract"
export { currencyForViewer, REFERENCE_CURRENCY } from "../../src/modules/catalogue/rates/rules"
export { type ContactSubject, ContactSubjects as CONTACT_SUBJECTS, type EmailFrequency } from "../../src/modules/notifications/rules"
export { type Role, type ProfileVisibility as Visibility } from "../../src/modules/identity/rules"
export { MAX_SERVICE_PHOTOS, type ServiceStatus, type Sort, Sorts as SORTS } from "../../src/modules/catalogue/rules"
export {
  type BookingAction,
  BookingActions as BOOKING_ACTIONS,
  type BookingStatus,
  BookingStatuses as BOOKING_STATUSES,
  DISPUTE_DESCRIPTION_MAX,
  DISPUTE_FILES_MAX,
  DISPUTE_MESSAGE_MAX,
  DISPUTE_NOTE_MAX,
  type DisputeOutcome,
  DisputeOutcomes as DISPUTE_OUTCOMES,
  type DisputeReason,
  DisputeReasons as DISPUTE_REASONS,
  type PaymentEvent,
  type PaymentStatus,
  PaymentStatuses as PAYMENT_STATUSES
} from "../../src/modules/booking/rules"
export type { ApplicationStatus, DocumentSlot, ResubmissionState } from "../../src/modules/onboarding/rules"
export {
  type AdminPaymentStatus,
  type AuditAction,
  AuditActions as AUDIT_ACTIONS,
  type AuditSubjectType,
  AuditSubjectTypes as AUDIT_SUBJECT_TYPES
} from "../../src/modules/administration/rules"
export type { EarningState } from "../../src/modules/booking/rules"

/** A query string's values before `queryString` writes them: the contract's parameters, as strings or numbers. */
type Query<P> = { readonly [K in keyof P]?: string | number }

/**
 * The wire form of a decoded value: dates travel as ISO strings (Schema.Date is the contracts' only
 * transformation), the rest as is.
 */
type Wire<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Wire<E>>
    : T extends object
      ? { readonly [K in keyof T]: Wire<T[K]> }
      : T

/**
 * The data of an endpoint's answer, by group and endpoint name (`Answer<typeof AdministrationApi, "users">`):
 * for the answers the contract does not name.
 */
export type Answer<Group extends HttpApiGroup.HttpApiGroup.Any, Name extends string> =
  HttpApiEndpoint.HttpApiEndpoint.Success<
    HttpApiEndpoint.HttpApiEndpoint.WithName<HttpApiGroup.HttpApiGroup.Endpoints<Group>, Name>
  > extends infer S
    ? S extends { readonly success: true; readonly data: infer D }
      ? Wire<D>
      : never
    : never

/** Every field present and not null, at every level (what a completed form sends of a loose payload). */
type Filled<T> = { readonly [K in keyof T]-?: Filled<NonNullable<T[K]>> }

// ---- Envelopes -------------------------------------------------------------------------------

export type Ok<T> = OkEncoded<T>
export type Failure = typeof FailureEnvelope.Encoded
export type FieldDetail = NonNullable<Failure["details"]>[number]
/** An answer without data (`{}`). */
export type Empty = Record<string, never>
export type Pagination = typeof PaginationSchema.Encoded

// ---- Identity and profiles -------------------------------------------------------------------

export type User = typeof UserView.Encoded
export type UserData = typeof UserDataSchema.Encoded
export type Session = typeof SessionView.Encoded
/** A login's answer: a session, or `{ twoFactorRequired, challenge }` (the code comes next). */
export type LoginAnswer = typeof LoginAnswerSchema.Encoded
export type TwoFactorStatus = Answer<typeof AuthApi, "twoFactorStatus">["twoFactor"]
export type TwoFactorSetup = Answer<typeof AuthApi, "twoFactorSetup">
export type RegisterRequest = typeof RegisterPayload.Encoded
export type LoginRequest = typeof LoginPayload.Encoded
export type EmailRequest = typeof EmailPayload.Encoded
export type ResetPasswordRequest = typeof ResetPasswordPayload.Encoded
export type UpdatePasswordRequest = typeof UpdatePasswordPayload.Encoded
export type ChangeEmailRequest = typeof ChangeEmailPayload.Encoded
export type SessionsData = typeof SessionsDataSchema.Encoded
export type AccountSession = SessionsData["sessions"][number]
export type DeleteAccountRequest = typeof DeleteAccountPayload.Encoded
export type UpdateMeRequest = typeof ProfilePatchPayload.Encoded
export type Badge = typeof BadgeView.Encoded
export type OwnProfile = typeof OwnProfileView.Encoded
export type PublicProfile = typeof PublicProfileView.Encoded
export type AvatarInfo = typeof AvatarView.Encoded

// ---- Onboarding ------------------------------------------------------------------------------

export type ApplicationDocument = typeof DocumentView.Encoded
export type AdminDocument = typeof AdminDocumentView.Encoded
export type Application = typeof ApplicationView.Encoded
export type AdminApplication = typeof AdminApplicationView.Encoded
export type ApplicationRow = typeof ApplicationRowView.Encoded
/** Where a rejected application stands: the fields every application view shares. */
export type ResubmissionInfo = Pick<
  Application,
  | "status"
  | "rejectionCount"
  | "maxAttempts"
  | "nextSubmissionDate"
  | "resubmissionState"
  | "canResubmit"
  | "isFinallyRefused"
  | "daysRemaining"
>

// ---- Notifications ---------------------------------------------------------------------------

export type ContactRequest = typeof ContactPayload.Encoded
export type NotificationPreferences = typeof PreferencesView.Encoded
export type PreferencesData = typeof PreferencesDataSchema.Encoded

// ---- Catalogue -------------------------------------------------------------------------------

export type Category = typeof CategoryView.Encoded
export type Service = typeof ServiceView.Encoded
/** The exchange rates in force (units of each currency for 1 EUR), as GET/PUT /api/rates answer them. */
export type ExchangeRates = typeof ExchangeRatesData.Encoded
export type Provider = Service["user"]
export type Photo = typeof PhotoView.Encoded
export type PhotosData = typeof PhotosDataSchema.Encoded
export type PhotoOrderRequest = typeof PhotoOrderPayload.Encoded
export type Review = typeof ReviewView.Encoded
export type ServiceDetail = typeof ServiceDetailSchema.Encoded
export type ServicesData = typeof Services.Encoded
export type ServicePage = typeof SearchData.Encoded
export type ServiceData = typeof ServiceDataSchema.Encoded
export type ServiceDetailData = typeof ServiceDetailDataSchema.Encoded
export type CategoriesData = typeof Categories.Encoded
/** GET /services query; absent values are not sent. */
export type ServiceQuery = Query<typeof SearchParams.Encoded> & { readonly sortBy?: Sort }
/** POST /services and PATCH /services/{id} (partial on PATCH). */
export type ServiceRequest = typeof ServicePayload.Encoded

// ---- Provider payout account -----------------------------------------------------------------

export type ConnectStatus = typeof ConnectStatusView.Encoded

// ---- Bookings, checkout and reviews ----------------------------------------------------------

export type Booking = typeof BookingView.Encoded
/** The spec's label: PAID is a pending request whose payment is secured. */
export type DisplayStatus = Booking["displayStatus"]
export type PersonRef = Booking["client"]
export type CalendarEvent = typeof CalendarEventView.Encoded
export type ServiceReview = typeof ServiceReviewView.Encoded
export type BookingRequest = typeof BookingPayload.Encoded
export type BookingQuery = Query<typeof BookingListParams.Encoded>
export type BookingData = typeof BookingDataSchema.Encoded
/** A proposal to move a booking (issue 12), and the answer of POST /bookings/{id}/reschedule. */
export type Reschedule = typeof RescheduleView.Encoded
export type RescheduleData = typeof RescheduleDataSchema.Encoded
/** A booking's dispute with its thread (issue 13), and the answers of its endpoints. */
export type Dispute = typeof DisputeView.Encoded
export type DisputeData = typeof DisputeDataSchema.Encoded
export type BookingPage = typeof BookingPageSchema.Encoded
/** A client's receipt of a booking's payment (issue 13). */
export type Receipt = typeof ReceiptView.Encoded
/** One event of a booking's payment timeline (held, captured, released, refunded…). */
export type PaymentTimelineEvent = typeof PaymentEventView.Encoded
/** A provider's earnings: a page of lines and the totals of all of them. */
export type EarningsPage = typeof EarningsPageSchema.Encoded
export type Earning = EarningsPage["earnings"][number]
export type EarningTotal = EarningsPage["totals"]["byCurrency"][number]
export type CheckoutRequest = typeof CheckoutPayload.Encoded
/** The billing details as the payment step sends them: every field of the payload's, filled in. */
export type BillingDetails = Filled<NonNullable<CheckoutRequest["billingDetails"]>>
export type CheckoutAnswer = typeof CheckoutAnswerSchema.Encoded
export type ReviewPage = typeof ReviewPageSchema.Encoded
/** A provider's availability plan (GET /providers/{id}/availability) and what PUT /providers/me/availability takes. */
export type Availability = typeof AvailabilityView.Encoded
export type AvailabilityRequest = typeof AvailabilityPayload.Encoded
/** Free start times of a service (GET /services/{id}/slots), with the provider's zone. */
export type Slots = typeof SlotsView.Encoded
export type Slot = Slots["slots"][number]
/** A place of the gazetteer (GET /places, /places/reverse); screens name its country in their language. */
export type Place = typeof PlaceViewSchema.Encoded

// ---- Messaging -------------------------------------------------------------------------------

export type Participant = typeof ParticipantView.Encoded
export type Message = typeof MessageView.Encoded
export type Conversation = typeof ConversationView.Encoded
export type ConversationPage = typeof ConversationPageSchema.Encoded
export type MessagePage = typeof MessagePageSchema.Encoded
export type MessageReceived = typeof MessageReceivedEvent.Encoded
export type Block = typeof BlockView.Encoded
export type Report = typeof ReportView.Encoded
export type AdminReport = typeof AdminReportView.Encoded
export type MessagesRead = typeof MessagesReadEvent.Encoded
export type UserTyping = typeof UserTypingEvent.Encoded
export type Presence = typeof PresenceEvent.Encoded
/** A socket acknowledgement: the success or the error envelope. */
export type Ack<T> = Ok<T> | Failure

// ---- Back-office -----------------------------------------------------------------------------

export type AdminUser = typeof AdminUserView.Encoded
export type Person = Pick<AdminUser, "id" | "firstName" | "lastName" | "email">
export type AdminBookingRow = typeof AdminBookingRowView.Encoded
export type AdminBooking = typeof AdminBookingView.Encoded
export type AuditEntry = typeof AuditEntryView.Encoded
export type AdminService = typeof AdminServiceView.Encoded
export type AdminPayment = typeof AdminBookingPaymentView.Encoded
export type Dashboard = typeof DashboardView.Encoded
export type FinancialStats = typeof FinancialStatsView.Encoded
export type Analytics = typeof AnalyticsView.Encoded
