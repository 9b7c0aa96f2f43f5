import { Context, type Effect, type Option } from "effect"
import type { RefundStatus } from "../payments"
import type { Language } from "../../platform/messages"
import type { Conflict } from "../../platform/errors"
import type {
  BookingState,
  BookingStatus,
  Decision,
  DisputeOutcome,
  DisputeReason,
  DisputeStatus,
  PaymentStatus,
  RescheduleStatus
} from "./domain"
import type { EarningSource } from "./statements"

/** A stored booking: the state the rules see plus what the screens and the gateway need. */
export interface BookingRecord extends BookingState {
  readonly serviceId: string
  readonly address: string
  readonly notes: string
  readonly hourlyPriceMinor: number
  readonly rejectionReason: string | null
  readonly cancelledBy: string | null
  readonly cancellationReason: string | null
  readonly checkoutSessionId: string | null
  readonly paymentIntentId: string | null
  readonly gatewayCustomerId: string | null
  readonly gatewayPaymentMethodId: string | null
  /** What a resolved dispute keeps (RESOLVED only; see BookingState). */
  readonly resolvedCaptureMinor: number | null
  readonly version: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface Participant {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly phoneNumber: string
  readonly preferredLanguage: Language
  /** Their IANA time zone (DEFAULT_TIME_ZONE while the account has none): screens and mails show their times in it. */
  readonly timeZone: string
}

/** A booking with the service and both people, as every view and mail needs it. */
export interface BookingDetail extends BookingRecord {
  readonly service: {
    readonly id: string
    readonly title: string
    readonly description: string
    readonly categoryNameFr: string
    readonly categoryNameEn: string
  }
  readonly client: Participant
  readonly provider: Participant
  readonly review: { readonly rating: number; readonly comment: string; readonly createdAt: Date } | null
  /** Every proposal to move the booking, newest first (the open one, if any, is also the state's `proposal`). */
  readonly reschedules: ReadonlyArray<RescheduleRecord>
  /** The booking's dispute (issue 13), if the client reported a problem. */
  readonly dispute: DisputeSummary | null
}

/** A dispute as the booking shows it: why, when, and the decision with its note once resolved. */
export interface DisputeSummary {
  readonly id: string
  readonly reason: DisputeReason
  readonly status: DisputeStatus
  readonly openedAt: Date
  readonly outcome: DisputeOutcome | null
  readonly note: string | null
  readonly resolvedAt: Date | null
}

/** A dispute with its description, thread and files (table booking_disputes and its children, migration 0024). */
export interface DisputeThread extends DisputeSummary {
  readonly bookingId: string
  readonly description: string
  readonly openedBy: string
  readonly messages: ReadonlyArray<DisputeMessageRecord>
  readonly files: ReadonlyArray<DisputeFileRecord>
}

export interface DisputeMessageRecord {
  readonly id: string
  readonly authorId: string
  readonly authorRole: "CLIENT" | "PROVIDER" | "ADMIN"
  readonly authorName: string
  readonly body: string
  readonly createdAt: Date
}

export interface DisputeFileRecord {
  readonly id: string
  /** null: sent with the report itself. */
  readonly messageId: string | null
  readonly uploadedBy: string
  readonly fileName: string
  readonly contentType: "image/jpeg" | "image/png" | "image/webp" | "application/pdf"
  readonly size: number
  readonly storageKey: string
  readonly createdAt: Date
}

export interface DisputeRepositoryShape {
  /** Records the report of a booking that has none (call in the decision's transaction). */
  readonly open: (dispute: {
    readonly id: string
    readonly bookingId: string
    readonly reason: DisputeReason
    readonly description: string
    readonly openedBy: string
    readonly openedAt: Date
  }) => Effect.Effect<void>
  readonly addMessage: (message: {
    readonly id: string
    readonly disputeId: string
    readonly authorId: string
    readonly authorRole: "CLIENT" | "PROVIDER" | "ADMIN"
    readonly body: string
    readonly createdAt: Date
  }) => Effect.Effect<void>
  readonly addFiles: (disputeId: string, files: ReadonlyArray<Omit<DisputeFileRecord, "createdAt">>, at: Date) => Effect.Effect<void>
  /** Records the decision on the booking's open dispute (call in the decision's transaction). */
  readonly resolve: (
    bookingId: string,
    decision: { readonly outcome: DisputeOutcome; readonly note: string; readonly resolvedBy: string; readonly resolvedAt: Date }
  ) => Effect.Effect<void>
  readonly thread: (bookingId: string) => Effect.Effect<Option.Option<DisputeThread>>
  /** Disputes still open, oldest first (the admin dashboard). */
  readonly unresolved: (limit: number) => Effect.Effect<ReadonlyArray<OpenDispute>>
}
/** An open dispute as the admin dashboard lists it. */
export interface OpenDispute {
  readonly bookingId: string
  readonly reason: DisputeReason
  readonly openedAt: Date
  readonly serviceTitle: string
  readonly clientName: string
  readonly providerName: string
  readonly totalMinor: number
  readonly currency: string
}
export class DisputeRepository extends Context.Tag("booking/DisputeRepository")<DisputeRepository, DisputeRepositoryShape>() {}

/** A proposal to move a booking, as stored (table booking_reschedules). */
export interface RescheduleRecord {
  readonly id: string
  readonly proposedBy: "CLIENT" | "PROVIDER"
  readonly startTime: Date
  readonly endTime: Date
  readonly totalMinor: number
  /** The booking's time and total when it was proposed. */
  readonly previousStartTime: Date
  readonly previousEndTime: Date
  readonly previousTotalMinor: number
  readonly status: RescheduleStatus
  readonly expiresAt: Date
  readonly createdAt: Date
  readonly decidedAt: Date | null
  readonly decidedBy: "CLIENT" | "PROVIDER" | "ADMIN" | "SYSTEM" | null
}

export type NewBooking = Omit<
  BookingRecord,
  | "version"
  | "createdAt"
  | "updatedAt"
  | "rejectionReason"
  | "cancelledBy"
  | "cancellationReason"
  | "checkoutSessionId"
  | "paymentIntentId"
  | "gatewayCustomerId"
  | "gatewayPaymentMethodId"
  | "resolvedCaptureMinor"
>

/** The gateway references a transition may come with (a new intent, a saved card...). */
export interface PaymentReferences {
  readonly checkoutSessionId?: string
  readonly paymentIntentId?: string
  readonly gatewayCustomerId?: string
  readonly gatewayPaymentMethodId?: string
}

export interface BookingListQuery {
  /** Whose bookings; every booking when undefined (administrators). */
  readonly userId: string | undefined
  readonly as: "client" | "provider" | "all"
  /** PAID stands for PENDING with a secured payment. */
  readonly statuses?: ReadonlyArray<BookingStatus | "PAID"> | undefined
  readonly limit: number
  readonly offset: number
}

export interface PaymentOperation {
  readonly bookingId: string
  readonly gateway: "stripe" | "sandbox"
  readonly kind: "AUTHORIZATION" | "CARD_SAVED" | "CAPTURE" | "CANCELLATION" | "REFUND" | "FAILURE"
  readonly amountMinor: number
  readonly currency: string
  readonly feeMinor: number
  readonly paymentIntentId: string | null
  /** The gateway's id of the operation: recording the same (kind, reference) twice is a no-op. */
  readonly reference: string
  readonly paymentMethod: string | null
  readonly detail: string | null
  /**
   * A refund's state as the gateway last said it (null for other kinds); recording a refund again
   * updates it (payments/rules.ts refundStatusAfter). A failed or canceled refund counts in no figure.
   */
  readonly refundStatus: RefundStatus | null
}

/** What a booking request needs, read with one statement: the service, its category, its provider and the client. */
export interface Bookable {
  readonly service: {
    readonly id: string
    readonly userId: string
    readonly title: string
    readonly description: string
    readonly priceMinor: number
    readonly currency: string
    readonly status: string
    readonly archivedAt: Date | null
    readonly categoryNameFr: string
    readonly categoryNameEn: string
  }
  readonly providerActive: boolean
  readonly provider: Participant
  readonly client: Participant
  /** A slot-holding booking of the provider overlapped the requested time when read. */
  readonly slotTaken: boolean
}

export interface BookingRepositoryShape {
  /**
   * The service to book with its provider and the client, and whether the provider's time is already
   * taken (None: no such service). The insert stays the authority on the slot; this read lets a request
   * for a slot taken earlier be refused at once, without a transaction.
   */
  readonly bookable: (
    serviceId: string,
    clientId: string,
    slot: { readonly start: Date; readonly end: Date }
  ) => Effect.Effect<Option.Option<Bookable>>
  /** Inserts unless the provider's slot overlaps a slot-holding booking: None then (never an error or a wait). */
  readonly insert: (booking: NewBooking) => Effect.Effect<Option.Option<BookingRecord>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<BookingDetail>>
  /** The booking locked for update until the transaction ends (call inside Transactional.run). */
  readonly lock: (id: string) => Effect.Effect<Option.Option<BookingRecord>>
  /**
   * Stores a decision taken on `before` (same version), with the references it came with and the
   * proposal it opens or closes. A move onto a slot another booking holds fails with 409
   * BOOKING_SLOT_TAKEN (the exclusion constraint); nothing is stored then.
   */
  readonly save: (before: BookingRecord, decision: Decision, references?: PaymentReferences) => Effect.Effect<BookingRecord, Conflict>
  /** Whether a slot-holding booking of the provider other than `ignoreBookingId` overlaps [start, end) now. */
  readonly slotTaken: (
    providerId: string,
    slot: { readonly start: Date; readonly end: Date },
    ignoreBookingId: string
  ) => Effect.Effect<boolean>
  readonly setReferences: (id: string, references: PaymentReferences) => Effect.Effect<void>
  /** Moves an unpaid request's slot hold to `until` (domain holdAfterCheckout decides it), when it is still pending. */
  readonly extendHold: (id: string, until: Date) => Effect.Effect<void>
  readonly list: (query: BookingListQuery) => Effect.Effect<{ readonly items: ReadonlyArray<BookingDetail>; readonly total: number }>
  /** The user's booking of the service that is under way (PENDING, CONFIRMED, IN_PROGRESS or SERVICE_RENDERED), newest first. */
  readonly activeForService: (serviceId: string, clientId: string) => Effect.Effect<Option.Option<BookingDetail>>
  /** The provider's slot-holding bookings overlapping [from, to). */
  readonly calendar: (providerId: string, from: Date, to: Date) => Effect.Effect<ReadonlyArray<BookingDetail>>
  /**
   * Ids of open bookings (DISPUTED included: its hold is renewed) that may have a timer due at `now`
   * (hold expiry, start, auto-validation, authorisation), oldest first; the sweep re-checks each under its lock.
   */
  readonly dueIds: (now: Date, limit: number) => Effect.Effect<ReadonlyArray<string>>
  /**
   * Ids of bookings whose money movement is left undone: COMPLETED or VALIDATED (or RESOLVED keeping
   * something) with a hold not captured or a saved card not collected yet, CANCELLED or REJECTED (or
   * RESOLVED releasing everything) with a hold not released.
   */
  readonly captureDueIds: (limit: number) => Effect.Effect<ReadonlyArray<string>>
  readonly findIdByPaymentReference: (reference: {
    readonly paymentIntentId?: string
    readonly checkoutSessionId?: string
  }) => Effect.Effect<Option.Option<string>>
  /**
   * Charge events apply in the order the gateway created them, per payment intent: records `occurredAt`
   * as the intent's last applied event and answers true, unless an event created later was applied
   * already (false: the caller ignores this one). Call inside the event's transaction.
   */
  readonly advanceChargeClock: (paymentIntentId: string, occurredAt: Date) => Effect.Effect<boolean>
  /**
   * Records a payment operation once per kind and reference (a repeat changes nothing, except that it
   * adds a detail the first record lacked: the admin's reason for a refund the webhook recorded first).
   */
  readonly recordOperation: (operation: PaymentOperation) => Effect.Effect<void>
  readonly operations: (bookingId: string) => Effect.Effect<ReadonlyArray<PaymentOperation & { readonly createdAt: Date }>>
  /**
   * The provider's bookings that hold money or had some captured, each with its payment records summed
   * (the amounts captured and refunded): what the earnings page and its CSV are computed from.
   */
  readonly earningSources: (providerId: string) => Effect.Effect<ReadonlyArray<EarningSource>>
}
export class BookingRepository extends Context.Tag("booking/BookingRepository")<BookingRepository, BookingRepositoryShape>() {}

export interface ReviewRecord {
  readonly id: string
  readonly bookingId: string
  readonly serviceId: string
  readonly clientId: string
  readonly providerId: string
  readonly rating: number
  readonly comment: string
  readonly createdAt: Date
  readonly client: { readonly firstName: string; readonly lastName: string }
}

export interface ReviewRepositoryShape {
  /** Inserts the booking's review; None when the booking already has one. */
  readonly insert: (review: Omit<ReviewRecord, "id" | "createdAt" | "client">) => Effect.Effect<Option.Option<ReviewRecord>>
  readonly ofService: (
    serviceId: string,
    limit: number,
    offset: number
  ) => Effect.Effect<{ readonly items: ReadonlyArray<ReviewRecord>; readonly total: number; readonly average: number }>
}
export class ReviewRepository extends Context.Tag("booking/ReviewRepository")<ReviewRepository, ReviewRepositoryShape>() {}

export type { PaymentStatus }

/** Which reminder went out for which start time of a booking (migration 0020). */
export interface ReminderLogShape {
  /**
   * Confirmed bookings starting in (now, now + within] that may have a reminder due and not yet
   * sent for their current start, soonest first; the sender re-checks each under its lock.
   */
  readonly candidates: (
    now: Date,
    withinMs: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly startTime: Date }>>
  /** Records the reminder for this start (call in the mail's transaction); false when it was sent already. */
  readonly record: (bookingId: string, kind: "24h" | "2h", startTime: Date) => Effect.Effect<boolean>
}

/** Whether two people blocked each other, either way (answered by messaging, which keeps the blocks). */
export class PairBlocks extends Context.Tag("booking/PairBlocks")<
  PairBlocks,
  { readonly blockedEitherWay: (a: string, b: string) => Effect.Effect<boolean> }
>() {}

export class ReminderLog extends Context.Tag("booking/ReminderLog")<ReminderLog, ReminderLogShape>() {}

/** A feed's stored key: the nonce its URL token derives from, and that token's SHA-256 (hex). */
export interface FeedKey {
  readonly nonce: string
  readonly tokenHash: string
}

/** Providers' private calendar feeds (migrations 0020, 0037): keys only, never a token. */
export interface CalendarFeedRepositoryShape {
  /** The provider's feed nonce; `candidate` is stored when they have none yet (a first visit, or a feed made before tokens were derived). */
  readonly nonceOf: (providerId: string, candidate: FeedKey) => Effect.Effect<string>
  /** Replaces the provider's key: every earlier URL stops working, the one from before derivation too. */
  readonly replace: (providerId: string, key: FeedKey) => Effect.Effect<void>
  /** The provider whose feed a token of this SHA-256 opens. */
  readonly providerOf: (tokenHash: string) => Effect.Effect<Option.Option<string>>
}

/** How a feed's URL token is made from its key, and what is kept of it (adapters/feed-tokens.ts). */
export interface CalendarFeedTokensShape {
  /** A new key for a provider's feed: a random nonce and the SHA-256 of the token it derives. */
  readonly newKey: (providerId: string) => FeedKey
  /** The URL token of a provider's feed nonce. */
  readonly tokenOf: (providerId: string, nonce: string) => string
  /** What the table keeps of a token. */
  readonly hashOf: (token: string) => string
}
export class CalendarFeedTokens extends Context.Tag("booking/CalendarFeedTokens")<CalendarFeedTokens, CalendarFeedTokensShape>() {}
export class CalendarFeedRepository extends Context.Tag("booking/CalendarFeedRepository")<
  CalendarFeedRepository,
  CalendarFeedRepositoryShape
>() {}
