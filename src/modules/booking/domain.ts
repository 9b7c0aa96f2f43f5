import { Either } from "effect"
import { Conflict, type FieldIssue, Forbidden, invalid, issue, NotFound, ValidationFailed } from "../../platform/errors"
import { amountParam } from "../../platform/messages"
import {
  ADDRESS_MAX,
  freeCancellationUntil,
  type BookingAction,
  type BookingStatus,
  COMMENT_MAX,
  DISPUTE_DESCRIPTION_MAX,
  DISPUTE_MESSAGE_MAX,
  DISPUTE_NOTE_MAX,
  type DisputeOutcome,
  DisputeOutcomes,
  type DisputeReason,
  DisputeReasons,
  MAX_ADVANCE_DAYS,
  MAX_DURATION_MINUTES,
  NOTES_MAX,
  type PaymentIssue,
  type PaymentStatus,
  RATING_MAX,
  type RescheduleStatus,
  RATING_MIN,
  REASON_MAX
} from "./rules"

/**
 * Bookings (spec client-and-provider sections 3 to 5, architecture section 4): a booking has two
 * dimensions, its status and its payment status, and one pure transition function decides every
 * change of either, for every actor, at a given time. The service stores what it answers and runs
 * the effects it lists (money movements, mails); nothing else changes a booking.
 */

export {
  type BookingAction,
  BookingActions,
  type BookingStatus,
  BookingStatuses,
  type DisputeOutcome,
  DisputeOutcomes,
  type DisputeReason,
  DisputeReasons,
  type DisputeStatus,
  DisputeStatuses,
  freeCancellationUntil,
  type PaymentIssue,
  PaymentIssues,
  type PaymentStatus,
  PaymentStatuses,
  type RescheduleStatus,
  RescheduleStatuses
} from "./rules"

/** Statuses that hold the provider's time slot (the exclusion constraint uses the same list). */
export const SLOT_HOLDING: ReadonlyArray<BookingStatus> = [
  "PENDING",
  "CONFIRMED",
  "IN_PROGRESS",
  "SERVICE_RENDERED",
  "DISPUTED",
  "RESOLVED",
  "COMPLETED",
  "VALIDATED"
]
/** No user command changes a booking in these statuses (an admin may still refund money). */
export const TERMINAL: ReadonlyArray<BookingStatus> = ["COMPLETED", "VALIDATED", "RESOLVED", "REJECTED", "CANCELLED"]
export const isTerminal = (status: BookingStatus) => TERMINAL.includes(status)
/**
 * Money may leave the client's card only once the service is done and accepted, or an administrator
 * decided a dispute (RESOLVED: what the decision keeps, `resolvedCaptureMinor`, possibly nothing); and,
 * outside these, a client's late-cancellation fee (see lateCancellationFee).
 */
export const CAPTURABLE: ReadonlyArray<BookingStatus> = ["COMPLETED", "VALIDATED", "RESOLVED"]

// ---- Business constants ----------------------------------------------------------------------

/** An unpaid request holds its slot this long, then expires (the client is sent to pay at once). */
export const HOLD_MINUTES = 30
/**
 * A checkout session stays open this long: Stripe's shortest `expires_at` (30 minutes by its own clock)
 * and a minute for the request and clock skew; its default, 24 hours, would outlive the slot by far.
 */
export const CHECKOUT_SESSION_MINUTES = 31
/** However often checkout is reopened, an unpaid request holds its slot at most this long after it was made. */
export const MAX_PAYMENT_WINDOW_MINUTES = 90

/**
 * The slot's hold once a checkout session open until `sessionEnd` is given to the client: it follows the
 * session (a payment made on it finds its booking still waiting), at most MAX_PAYMENT_WINDOW_MINUTES
 * after the request; undefined when it does not change (not an unpaid request, or already as long).
 */
export const holdAfterCheckout = (
  s: Pick<BookingState, "status" | "holdExpiresAt"> & { readonly createdAt: Date },
  sessionEnd: Date
): Date | undefined => {
  if (s.status !== "PENDING" || s.holdExpiresAt === null) return undefined
  const until = Math.min(sessionEnd.getTime(), s.createdAt.getTime() + MAX_PAYMENT_WINDOW_MINUTES * MINUTE)
  return until > s.holdExpiresAt.getTime() ? new Date(until) : undefined
}
/** A card authorisation lasts about 7 days at the card networks (5 for merchant-initiated Visa). */
export const AUTHORIZATION_DAYS = 7
/** A booking starting within this window is authorised at checkout; a later one saves the card. */
export const AUTHORIZE_AT_CHECKOUT_DAYS = 5
/** A saved card is authorised off-session this long before the service starts. */
export const AUTHORIZE_LEAD_DAYS = 3
/** A hold that would expire within this margin while still needed is renewed. */
export const RENEWAL_MARGIN_HOURS = 24
/** The client has this long after "service rendered" to confirm; then the booking is VALIDATED. */
export const AUTO_VALIDATE_DAYS = 7
/** The platform's share of each payment, in percent (spec section 9). */
export const COMMISSION_PERCENT = 5
export { ADDRESS_MAX, COMMENT_MAX, MAX_ADVANCE_DAYS, MAX_DURATION_MINUTES, NOTES_MAX, REASON_MAX } from "./rules"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

// ---- Money -----------------------------------------------------------------------------------

/** Total = hourly price × hours, in the currency's minor unit, rounded to the nearest unit. */
export const totalFor = (hourlyPriceMinor: number, minutes: number) => Math.round((hourlyPriceMinor * minutes) / 60)
/** The platform's fee on an amount (recomputed on whatever is actually captured). */
export const commissionOf = (amountMinor: number) => Math.round((amountMinor * COMMISSION_PERCENT) / 100)

// ---- The cancellation policy (issue 13) --------------------------------------------------------

/**
 * A client cancels a confirmed booking free of charge until `freeHours` before its start; later, a fee of
 * `feePercent` of the total is captured from the hold and the rest released. Both figures are
 * configuration (CANCELLATION_FREE_HOURS, CANCELLATION_FEE_PERCENT). A request the provider has not
 * confirmed yet is always withdrawn free; with no hold at that moment (a card saved only, unpaid, a payment
 * awaiting the client) nothing is captured; a provider's or an administrator's cancellation releases everything.
 */
export interface CancellationPolicy {
  readonly freeHours: number
  readonly feePercent: number
}
/** An administrator's command stands for no client: no fee whatever the configuration. */
export const NO_FEE_POLICY: CancellationPolicy = { freeHours: 0, feePercent: 0 }

/**
 * The fee the client would pay by cancelling at `now`: feePercent of the total, rounded down to the
 * minor unit (the client never pays a fraction more), never more than the hold; 0 while free, for a
 * booking not confirmed, and without a hold covering the total.
 */
export const lateCancellationFee = (
  s: Pick<BookingState, "status" | "paymentStatus" | "startTime" | "totalMinor" | "authorizedMinor">,
  policy: CancellationPolicy,
  now: Date
): number => {
  if (s.status !== "CONFIRMED" || s.paymentStatus !== "AUTHORIZED" || shortHold(s)) return 0
  if (now.getTime() < freeCancellationUntil(s, policy).getTime()) return 0
  return Math.max(0, Math.min(Math.floor((s.totalMinor * policy.feePercent) / 100), s.authorizedMinor))
}

// ---- The booking as the rules see it ---------------------------------------------------------

export interface BookingState {
  readonly id: string
  readonly clientId: string
  readonly providerId: string
  readonly status: BookingStatus
  readonly paymentStatus: PaymentStatus
  readonly startTime: Date
  readonly endTime: Date
  readonly totalMinor: number
  /** The currency of every amount of the booking (its service's, at the time of booking). */
  readonly currency: string
  readonly authorizedMinor: number
  readonly capturedMinor: number
  readonly refundedMinor: number
  /** Until when an unpaid request holds the slot. */
  readonly holdExpiresAt: Date | null
  /** When the current authorisation lapses at the card network (null without one). */
  readonly authorizationExpiresAt: Date | null
  readonly renderedAt: Date | null
  /**
   * Why a booking that reached COMPLETED or VALIDATED holds no captured money (null when nothing is
   * wrong): the booking is flagged for an administrator until its money is captured.
   */
  readonly paymentIssue: PaymentIssue | null
  /**
   * The late-cancellation fee a client's cancellation decided (0 otherwise): captured from the hold,
   * the rest released. Money may be captured in a CANCELLED booking only up to it.
   */
  readonly cancellationFeeMinor: number
  /** The open proposal to move the booking, if any (at most one; absent and null mean none). */
  readonly proposal?: RescheduleProposal | null | undefined
  /**
   * What an administrator's dispute decision keeps (RESOLVED only): the amount to capture, 0 when
   * everything is released. Absent or null in every other status.
   */
  readonly resolvedCaptureMinor?: number | null | undefined
}

/** An open proposal to move a booking to another time (issue 12, rescheduling). */
export interface RescheduleProposal {
  readonly id: string
  /** Which side proposed it: only the other side answers. */
  readonly by: "client" | "provider"
  readonly startTime: Date
  readonly endTime: Date
  /** The total at the proposed duration (totalFor at the booked hourly price): equal to the booking's when the duration is kept. */
  readonly totalMinor: number
  /** It lapses then: the booking's start when it was proposed. */
  readonly expiresAt: Date
  /**
   * Accepted, but it raises the total of a booking that holds money: the booking moves only once the
   * client's authorisation of the new total arrives (PaymentAuthorized), and the old hold is released then.
   */
  readonly awaitingPayment?: boolean | undefined
}

/** The open proposal of a history, as the rules see it. */
export const openProposalOf = (
  history: ReadonlyArray<{
    readonly id: string
    readonly proposedBy: "CLIENT" | "PROVIDER"
    readonly startTime: Date
    readonly endTime: Date
    readonly totalMinor: number
    readonly status: RescheduleStatus
    readonly expiresAt: Date
  }>
): RescheduleProposal | null => {
  const open = history.find((r) => r.status === "OPEN" || r.status === "AWAITING_PAYMENT")
  return open
    ? {
        id: open.id,
        by: open.proposedBy === "CLIENT" ? "client" : "provider",
        startTime: open.startTime,
        endTime: open.endTime,
        totalMinor: open.totalMinor,
        expiresAt: open.expiresAt,
        ...(open.status === "AWAITING_PAYMENT" ? { awaitingPayment: true } : {})
      }
    : null
}

export type Actor =
  | { readonly _tag: "User"; readonly id: string; readonly role: "CLIENT" | "PROVIDER" | "ADMIN" }
  | { readonly _tag: "System" }
export const SystemActor: Actor = { _tag: "System" }

/** Where the client's payment stands after a gateway event (sent by payments, applied here). */
export type Command =
  // Users
  | { readonly _tag: "Confirm" }
  | { readonly _tag: "Reject"; readonly reason: string }
  /**
   * The policy in force (configuration) decides a client's late-cancellation fee; `acceptedFeeMinor`, the
   * fee the client was shown, caps it: a higher one (the provider confirmed meanwhile, the free period
   * ended) is refused, never charged.
   */
  | {
      readonly _tag: "Cancel"
      readonly reason?: string | undefined
      readonly policy: CancellationPolicy
      readonly acceptedFeeMinor?: number | undefined
    }
  | { readonly _tag: "MarkRendered" }
  | { readonly _tag: "ConfirmCompletion"; readonly rating: number; readonly comment: string }
  | { readonly _tag: "Validate" }
  | { readonly _tag: "Refund"; readonly amountMinor?: number | undefined }
  /** A new time for the booking (times checked by validateProposedTime, total by totalFor, id new). */
  | {
      readonly _tag: "ProposeReschedule"
      readonly proposalId: string
      readonly startTime: Date
      readonly endTime: Date
      readonly totalMinor: number
    }
  | { readonly _tag: "AcceptReschedule"; readonly proposalId: string }
  | { readonly _tag: "DeclineReschedule"; readonly proposalId: string }
  /** The client reports a problem after "service rendered", before the automatic validation (issue 13). */
  | { readonly _tag: "ReportProblem"; readonly reason: DisputeReason }
  /** A party or an administrator adds to an open dispute (the booking is unchanged; the other side is told). */
  | { readonly _tag: "AddDisputeMessage" }
  /** An administrator decides a dispute: capture all, part (`amountMinor`), or release everything. */
  | { readonly _tag: "ResolveDispute"; readonly outcome: DisputeOutcome; readonly amountMinor?: number | undefined }
  // Time
  | { readonly _tag: "ExpireReschedule" }
  /** The client's authorisation of a raised total arrived, but the proposed time was taken meanwhile. */
  | { readonly _tag: "RescheduleUnavailable" }
  | { readonly _tag: "ExpireHold" }
  | { readonly _tag: "Start" }
  | { readonly _tag: "AutoValidate" }
  // The gateway's answers
  | { readonly _tag: "CardSaved" }
  | { readonly _tag: "PaymentAuthorized"; readonly amountMinor: number; readonly expiresAt: Date }
  | { readonly _tag: "AuthorizationFailed"; readonly needsClient: boolean }
  | { readonly _tag: "PaymentCaptured"; readonly amountMinor: number }
  | { readonly _tag: "AuthorizationReleased" }
  | { readonly _tag: "PaymentRefunded"; readonly totalRefundedMinor: number }
  /** A refund failed (or was canceled) at the gateway: the refunded total its records still count. */
  | { readonly _tag: "RefundFailed"; readonly totalRefundedMinor: number }
export type CommandTag = Command["_tag"]

/** What the service must do after storing the new state (after the transaction commits): money movements, mails, the review. */
export type SideEffect =
  | { readonly _tag: "Capture"; readonly amountMinor: number }
  | { readonly _tag: "ReleaseAuthorization" }
  /** Release the hold a new authorisation replaced (a move that raised the total): only once the new one is recorded. */
  | { readonly _tag: "ReleaseReplacedAuthorization" }
  /** Authorise the saved card off-session now (a booking completed before its card was authorised); the hold is then captured. */
  | { readonly _tag: "AuthorizeSavedCard" }
  | { readonly _tag: "Refund"; readonly amountMinor: number }
  /** Mails both parties, or only `to` (a reschedule is told to the other party). */
  | { readonly _tag: "Notify"; readonly event: NotificationEvent; readonly to?: "client" | "provider" | undefined }
  | { readonly _tag: "RecordReview"; readonly rating: number; readonly comment: string }

export const NotificationEvents = [
  "requested",
  "paymentAuthorized",
  "paymentActionRequired",
  "confirmed",
  "rejected",
  "cancelled",
  "expired",
  "rendered",
  "completed",
  "validated",
  "refunded",
  /** The client's receipt, when their payment is captured (mails.ts's receiptMail, with the PDF). */
  "receipt",
  "rescheduleProposed",
  "rescheduleAccepted",
  "rescheduleDeclined",
  "rescheduleAwaitingPayment",
  "rescheduleMoved",
  "rescheduleUnavailable",
  "disputeOpened",
  "disputeMessage",
  "disputeResolved"
] as const
export type NotificationEvent = (typeof NotificationEvents)[number]

export interface Decision {
  readonly next: BookingState
  readonly effects: ReadonlyArray<SideEffect>
  /** Stored with the booking when set. */
  readonly rejectionReason?: string
  readonly cancellation?: { readonly by: "CLIENT" | "PROVIDER" | "ADMIN" | "SYSTEM"; readonly reason: string }
  /** A proposal opened, or the open one closed (stored with the booking, in the same transaction). */
  readonly reschedule?: RescheduleChange
}

export type RescheduleChange =
  | {
      readonly _tag: "Open"
      readonly proposal: RescheduleProposal
      readonly previous: Pick<BookingState, "startTime" | "endTime" | "totalMinor">
      readonly at: Date
    }
  /** Accepted, awaiting the client's authorisation of the raised total (the booking has not moved). */
  | { readonly _tag: "AwaitPayment"; readonly proposalId: string; readonly by: "CLIENT" | "PROVIDER"; readonly at: Date }
  | {
      readonly _tag: "Close"
      readonly proposalId: string
      readonly status: Exclude<RescheduleStatus, "OPEN" | "AWAITING_PAYMENT">
      readonly by: "CLIENT" | "PROVIDER" | "ADMIN" | "SYSTEM"
      readonly at: Date
    }

// ---- Errors ----------------------------------------------------------------------------------

export const BookingNotFound = new NotFound({ code: "BOOKING_NOT_FOUND", key: "booking.notFound" })
export const NotYourBooking = new Forbidden({ code: "BOOKING_FORBIDDEN", key: "booking.forbidden" })
export const illegalTransition = (status: BookingStatus, paymentStatus: PaymentStatus) =>
  new Conflict({
    code: "BOOKING_INVALID_TRANSITION",
    key: "booking.invalidTransition",
    params: { status: `bookingStatus.${status}`, paymentStatus: `paymentStatus.${paymentStatus}` }
  })
export const SlotTaken = new Conflict({ code: "BOOKING_SLOT_TAKEN", key: "booking.slotTaken" })
/** Cancelling now costs more than the client was shown: nothing is done, the answer says the new fee. */
export const cancellationFeeNotAccepted = (feeMinor: number, currency: string) =>
  new Conflict({
    code: "CANCELLATION_FEE_CHANGED",
    key: "booking.cancellationFeeChanged",
    params: { fee: amountParam(feeMinor, currency) }
  })
export const OwnService = new Forbidden({ code: "BOOKING_OWN_SERVICE", key: "booking.ownService" })
/** The client or the provider blocked the other (messaging's blocks): no booking between them, either way. */
export const BookingPairBlocked = new Forbidden({ code: "USER_BLOCKED", key: "booking.pairBlocked" })
export const ServiceUnavailable = new Conflict({ code: "SERVICE_UNAVAILABLE", key: "booking.serviceUnavailable" })
export const PaymentNotAuthorized = new Conflict({ code: "PAYMENT_NOT_AUTHORIZED", key: "booking.paymentNotAuthorized" })
export const AlreadyStarted = new Conflict({ code: "BOOKING_ALREADY_STARTED", key: "booking.alreadyStarted" })
export const NotStartedYet = new Conflict({ code: "BOOKING_NOT_STARTED", key: "booking.notStartedYet" })
export const RescheduleNotFound = new NotFound({ code: "RESCHEDULE_NOT_FOUND", key: "booking.rescheduleNotFound" })
/** Accepting or declining one's own proposal: only the other party answers it. */
export const OwnProposal = new Forbidden({ code: "RESCHEDULE_OWN_PROPOSAL", key: "booking.rescheduleOwnProposal" })
export const RescheduleAlreadyOpen = new Conflict({ code: "RESCHEDULE_ALREADY_OPEN", key: "booking.rescheduleAlreadyOpen" })
export const NotReschedulable = new Conflict({ code: "BOOKING_NOT_RESCHEDULABLE", key: "booking.notReschedulable" })
/** The proposal was answered, or lapsed, already. */
export const RescheduleClosed = new Conflict({ code: "RESCHEDULE_CLOSED", key: "booking.rescheduleClosed" })
/** A dispute is reported only on a rendered booking before its automatic validation. */
export const NotDisputable = new Conflict({ code: "BOOKING_NOT_DISPUTABLE", key: "booking.notDisputable" })
/** Messages and decisions need an open dispute. */
export const DisputeNotOpen = new Conflict({ code: "DISPUTE_NOT_OPEN", key: "booking.disputeNotOpen" })
export const DisputeNotFound = new NotFound({ code: "DISPUTE_NOT_FOUND", key: "booking.disputeNotFound" })
export const DisputeFileNotFound = new NotFound({ code: "DISPUTE_FILE_NOT_FOUND", key: "booking.disputeFileNotFound" })
/** A partial capture must be 1..max minor units. */
export const disputeAmountInvalid = (maxMinor: number, currency: string) =>
  new ValidationFailed({
    code: "VALIDATION_ERROR",
    key: "booking.disputeAmountInvalid",
    params: { min: amountParam(1, currency), max: amountParam(maxMinor, currency) },
    details: [issue("amountMinor", "booking.disputeAmountInvalid")]
  })
export const refundTooLarge = (maxMinor: number, currency: string) =>
  new ValidationFailed({
    code: "VALIDATION_ERROR",
    key: "booking.refundTooLarge",
    params: { max: amountParam(maxMinor, currency) },
    details: [issue("amount", "booking.refundTooLarge")]
  })

/** The gateway refused a refund: what is left to refund is less (another refund was made meanwhile). */
export const RefundExceedsRefundable = new Conflict({ code: "REFUND_EXCEEDS_REFUNDABLE", key: "booking.refundExceedsRefundable" })

export type TransitionError = Forbidden | Conflict | ValidationFailed

// ---- Who is the actor to this booking --------------------------------------------------------

export type Party = "client" | "provider" | "admin" | "system" | "stranger"

/** A provider who books someone else's service is that booking's client (never both sides: own services cannot be booked). */
export const partyOf = (booking: Pick<BookingState, "clientId" | "providerId">, actor: Actor): Party => {
  if (actor._tag === "System") return "system"
  if (actor.id === booking.clientId) return "client"
  if (actor.id === booking.providerId) return "provider"
  if (actor.role === "ADMIN") return "admin"
  return "stranger"
}

/** Which parties may issue each command (the rest answer 403). */
export const ALLOWED: Record<CommandTag, ReadonlyArray<Party>> = {
  Confirm: ["provider", "admin"],
  Reject: ["provider", "admin"],
  Cancel: ["client", "provider", "admin"],
  MarkRendered: ["provider"],
  ConfirmCompletion: ["client"],
  Validate: ["admin"],
  Refund: ["admin"],
  ProposeReschedule: ["client", "provider"],
  AcceptReschedule: ["client", "provider"],
  DeclineReschedule: ["client", "provider"],
  ReportProblem: ["client"],
  AddDisputeMessage: ["client", "provider", "admin"],
  ResolveDispute: ["admin"],
  ExpireReschedule: ["system"],
  RescheduleUnavailable: ["system"],
  ExpireHold: ["system"],
  Start: ["system"],
  AutoValidate: ["system"],
  CardSaved: ["system"],
  PaymentAuthorized: ["system"],
  AuthorizationFailed: ["system"],
  PaymentCaptured: ["system"],
  AuthorizationReleased: ["system"],
  PaymentRefunded: ["system"],
  RefundFailed: ["system"]
}

// ---- Validation of command inputs (spec section 5) ----------------------------------------------

export { RATING_MAX, RATING_MIN } from "./rules"

export const validateReview = (rating: unknown, comment: unknown): Either.Either<{ rating: number; comment: string }, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const r = typeof rating === "string" && rating.trim() !== "" ? Number(rating) : rating
  if (typeof r !== "number" || !Number.isInteger(r) || r < RATING_MIN || r > RATING_MAX)
    problems.push(issue("rating", "booking.ratingRange"))
  const text = typeof comment === "string" ? comment.trim() : ""
  if (text === "") problems.push(issue("comment", "booking.commentRequired"))
  else if (text.length > COMMENT_MAX) problems.push(issue("comment", "validation.tooLong"))
  return problems.length > 0 ? Either.left(invalid(problems)) : Either.right({ rating: r as number, comment: text })
}

export const validateReason = (reason: unknown): Either.Either<string, ValidationFailed> => {
  const text = typeof reason === "string" ? reason.trim() : ""
  if (text === "") return Either.left(invalid([issue("reason", "booking.reasonRequired")]))
  if (text.length > REASON_MAX) return Either.left(invalid([issue("reason", "validation.tooLong")]))
  return Either.right(text)
}

// ---- Disputes (issue 13) -------------------------------------------------------------------------

const textOf = (value: unknown) => (typeof value === "string" ? value.trim() : "")

/** The client's report: one of the reasons, and a description of what went wrong. */
export const validateDisputeReport = (
  reason: unknown,
  description: unknown
): Either.Either<{ readonly reason: DisputeReason; readonly description: string }, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const r = textOf(reason).toUpperCase()
  if (r === "") problems.push(issue("reason", "validation.required"))
  else if (!(DisputeReasons as ReadonlyArray<string>).includes(r)) problems.push(issue("reason", "booking.disputeReasonInvalid"))
  const text = textOf(description)
  if (text === "") problems.push(issue("description", "validation.required"))
  else if (text.length > DISPUTE_DESCRIPTION_MAX) problems.push(issue("description", "validation.tooLong"))
  return problems.length > 0 ? Either.left(invalid(problems)) : Either.right({ reason: r as DisputeReason, description: text })
}

/** A message added to a dispute: some text, or at least one file (`hasFiles`). */
export const validateDisputeMessage = (body: unknown, hasFiles: boolean): Either.Either<string, ValidationFailed> => {
  const text = textOf(body)
  if (text === "" && !hasFiles) return Either.left(invalid([issue("body", "validation.required")]))
  if (text.length > DISPUTE_MESSAGE_MAX) return Either.left(invalid([issue("body", "validation.tooLong")]))
  return Either.right(text)
}

/** An administrator's decision as sent: an outcome, an amount for a partial capture (checked by the transition), a note. */
export const validateResolution = (input: {
  readonly outcome?: unknown
  readonly amountMinor?: unknown
  readonly note?: unknown
}): Either.Either<
  { readonly outcome: DisputeOutcome; readonly amountMinor: number | undefined; readonly note: string },
  ValidationFailed
> => {
  const problems: Array<FieldIssue> = []
  const o = textOf(input.outcome).toUpperCase()
  if (o === "") problems.push(issue("outcome", "validation.required"))
  else if (!(DisputeOutcomes as ReadonlyArray<string>).includes(o)) problems.push(issue("outcome", "booking.disputeOutcomeInvalid"))
  const raw = typeof input.amountMinor === "string" && input.amountMinor.trim() !== "" ? Number(input.amountMinor) : input.amountMinor
  let amountMinor: number | undefined
  if (o === "CAPTURE_PART") {
    if (raw === undefined || raw === null || raw === "") problems.push(issue("amountMinor", "validation.required"))
    else if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 1)
      problems.push(issue("amountMinor", "booking.disputeAmountInvalidNumber"))
    else amountMinor = raw
  }
  const note = textOf(input.note)
  if (note === "") problems.push(issue("note", "validation.required"))
  else if (note.length > DISPUTE_NOTE_MAX) problems.push(issue("note", "validation.tooLong"))
  return problems.length > 0 ? Either.left(invalid(problems)) : Either.right({ outcome: o as DisputeOutcome, amountMinor, note })
}

// ---- The booking request (spec section 5, "booking form") -------------------------------------

export interface BookingRequestInput {
  readonly serviceId?: unknown
  readonly startTime?: unknown
  readonly endTime?: unknown
  readonly address?: unknown
  readonly notes?: unknown
  readonly date?: unknown
}

export interface BookingRequest {
  readonly serviceId: string
  readonly startTime: Date
  readonly endTime: Date
  readonly minutes: number
  readonly address: string
  readonly notes: string
}

const parseInstant = (value: unknown): Date | undefined => {
  if (typeof value !== "string" && typeof value !== "number") return undefined
  if (typeof value === "string" && value.trim() === "") return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** A valid address has some letters or digits beyond a few characters (not "-" or "..."). */
const isPlausibleAddress = (text: string) => text.length >= 5 && /[\p{L}\p{N}]{2,}/u.test(text)

/**
 * The time rules of a booking (a request or a proposed new time), at `now`: start and end present and
 * valid, end after start, whole minutes, at most a week long, start in the future and within a year.
 * Pushes what is wrong to `problems`.
 */
const checkTimes = (rawStartInput: unknown, rawEndInput: unknown, now: Date, problems: Array<FieldIssue>) => {
  const rawStart = rawStartInput ?? undefined
  const rawEnd = rawEndInput ?? undefined
  const start = parseInstant(rawStart)
  const end = parseInstant(rawEnd)
  if (rawStart === undefined || rawStart === null || rawStart === "") problems.push(issue("startTime", "validation.required"))
  else if (!start) problems.push(issue("startTime", "booking.invalidDate"))
  if (rawEnd === undefined || rawEnd === null || rawEnd === "") problems.push(issue("endTime", "validation.required"))
  else if (!end) problems.push(issue("endTime", "booking.invalidDate"))
  let minutes = 0
  if (start && end) {
    const span = end.getTime() - start.getTime()
    minutes = span / MINUTE
    if (span <= 0) problems.push(issue("endTime", "booking.endBeforeStart"))
    // Priced by the minute: a span of seconds would be rounded, so it is refused.
    else if (!Number.isInteger(minutes)) problems.push(issue("endTime", "booking.invalidDuration"))
    else if (minutes > MAX_DURATION_MINUTES) problems.push(issue("endTime", "booking.tooLong"))
    if (start.getTime() <= now.getTime()) problems.push(issue("startTime", "booking.startInPast"))
    else if (start.getTime() > now.getTime() + MAX_ADVANCE_DAYS * DAY) problems.push(issue("startTime", "booking.tooFarAhead"))
  }
  return { start, end, minutes }
}

/**
 * A proposed new time for a booking at `now`: the request's time rules, a total that can be paid at the
 * booked hourly price, and a time other than the booked one. Answers the times and the total at the
 * proposed duration (the booking's own total when the duration is kept).
 */
export const validateProposedTime = (
  input: { readonly startTime?: unknown; readonly endTime?: unknown },
  booking: Pick<BookingState, "startTime" | "endTime" | "totalMinor">,
  hourlyPriceMinor: number,
  now: Date
): Either.Either<{ readonly startTime: Date; readonly endTime: Date; readonly totalMinor: number }, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const { start, end, minutes } = checkTimes(input.startTime, input.endTime, now, problems)
  if (problems.length > 0 || !start || !end) return Either.left(invalid(problems))
  if (start.getTime() === booking.startTime.getTime() && end.getTime() === booking.endTime.getTime())
    return Either.left(invalid([issue("startTime", "booking.rescheduleSameTime")]))
  const sameDuration = end.getTime() - start.getTime() === booking.endTime.getTime() - booking.startTime.getTime()
  const totalMinor = sameDuration ? booking.totalMinor : totalFor(hourlyPriceMinor, minutes)
  if (totalMinor < 1) return Either.left(invalid([issue("endTime", "booking.invalidDuration")]))
  return Either.right({ startTime: start, endTime: end, totalMinor })
}

/**
 * Checks a booking request at `now`: start and end present and valid, end after start, start in the
 * future and within a year, at most a week long, whole minutes, an address; notes optional.
 */
export const validateBookingRequest = (input: BookingRequestInput, now: Date): Either.Either<BookingRequest, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const serviceId = typeof input.serviceId === "string" ? input.serviceId.trim() : ""
  if (serviceId === "") problems.push(issue("serviceId", "validation.required"))
  const { start, end, minutes } = checkTimes(input.startTime, input.endTime, now, problems)
  const address = typeof input.address === "string" ? input.address.trim() : ""
  if (address === "") problems.push(issue("address", "validation.required"))
  else if (address.length > ADDRESS_MAX) problems.push(issue("address", "validation.tooLong"))
  else if (!isPlausibleAddress(address)) problems.push(issue("address", "booking.invalidAddress"))
  const notes = typeof input.notes === "string" ? input.notes.trim() : ""
  if (input.notes !== undefined && input.notes !== null && typeof input.notes !== "string")
    problems.push(issue("notes", "request.malformed"))
  else if (notes.length > NOTES_MAX) problems.push(issue("notes", "validation.tooLong"))
  if (problems.length > 0) return Either.left(invalid(problems))
  return Either.right({ serviceId, startTime: start!, endTime: end!, minutes, address, notes })
}

/** A request whose total would round to nothing (a tiny price for a few minutes) cannot be paid. */
export const TooCheapToPay = invalid([issue("endTime", "booking.invalidDuration")])
export const priceable = (hourlyPriceMinor: number, minutes: number) => totalFor(hourlyPriceMinor, minutes) >= 1

/** A new request: pending, unpaid, holding its slot for HOLD_MINUTES. */
export const newBooking = (
  fields: {
    readonly id: string
    readonly clientId: string
    readonly providerId: string
    readonly hourlyPriceMinor: number
    readonly currency: string
  },
  request: BookingRequest,
  now: Date
): BookingState => ({
  id: fields.id,
  clientId: fields.clientId,
  providerId: fields.providerId,
  status: "PENDING",
  paymentStatus: "UNPAID",
  startTime: request.startTime,
  endTime: request.endTime,
  totalMinor: totalFor(fields.hourlyPriceMinor, request.minutes),
  currency: fields.currency,
  authorizedMinor: 0,
  capturedMinor: 0,
  refundedMinor: 0,
  holdExpiresAt: new Date(now.getTime() + HOLD_MINUTES * MINUTE),
  authorizationExpiresAt: null,
  renderedAt: null,
  paymentIssue: null,
  cancellationFeeMinor: 0
})

// ---- Payment-mode decision ---------------------------------------------------------------------

/** Authorise now when the hold outlives the service's start; otherwise save the card for later. */
export const checkoutModeFor = (startTime: Date, now: Date): "authorize" | "save_card" =>
  startTime.getTime() - now.getTime() <= AUTHORIZE_AT_CHECKOUT_DAYS * DAY ? "authorize" : "save_card"

/**
 * When a rendered booking the client did not answer is validated: AUTO_VALIDATE_DAYS after the later
 * of "service rendered" and the booked end (a provider marking it rendered early gains nothing).
 */
export const autoValidateAt = (s: Pick<BookingState, "renderedAt" | "endTime">): Date | null =>
  s.renderedAt === null ? null : new Date(Math.max(s.renderedAt.getTime(), s.endTime.getTime()) + AUTO_VALIDATE_DAYS * DAY)

/** When a saved card is to be authorised off-session. */
export const authorizeAt = (startTime: Date) => new Date(startTime.getTime() - AUTHORIZE_LEAD_DAYS * DAY)

// ---- The transition function ------------------------------------------------------------------

const CHECKOUT_OPEN: ReadonlyArray<PaymentStatus> = ["UNPAID", "REQUIRES_ACTION"]
const HOLDING_MONEY: ReadonlyArray<PaymentStatus> = ["AUTHORIZED"]
/** A finished booking waiting for its money in these payment statuses can still be paid (its card is collected, or a hold arrives). */
const COLLECTABLE: ReadonlyArray<PaymentStatus> = ["CARD_SAVED", "REQUIRES_ACTION"]
/** A PENDING booking the client has done their part for: the provider can confirm it. */
const PAYMENT_SECURED: ReadonlyArray<PaymentStatus> = ["AUTHORIZED", "CARD_SAVED"]

const notify = (event: NotificationEvent): SideEffect => ({ _tag: "Notify", event })
/**
 * The amount a finished booking's money is captured for: the total, or what a dispute's decision
 * keeps (RESOLVED; 0 when it released everything). The capture is further bounded by the hold.
 */
type CaptureFacts = Pick<BookingState, "status" | "totalMinor" | "resolvedCaptureMinor" | "cancellationFeeMinor">
/** A client's late cancellation: its fee, and nothing more, is captured from the hold. */
const lateFeeDue = (s: CaptureFacts) => s.status === "CANCELLED" && s.cancellationFeeMinor > 0
export const captureTarget = (s: CaptureFacts) =>
  s.status === "RESOLVED"
    ? Math.min(s.totalMinor, s.resolvedCaptureMinor ?? 0)
    : lateFeeDue(s)
      ? Math.min(s.totalMinor, s.cancellationFeeMinor)
      : s.totalMinor
/** Money waiting to be captured: a finished booking (COMPLETED, VALIDATED, or RESOLVED keeping something) or a late-cancellation fee. */
export const wantsCapture = (s: CaptureFacts) => (CAPTURABLE.includes(s.status) || lateFeeDue(s)) && captureTarget(s) > 0
/**
 * A hold short of the total: a move raised the total, the hold is being released and the client is to
 * authorise the new amount. It secures nothing (no confirmation, no renewal).
 */
export const shortHold = (s: Pick<BookingState, "paymentStatus" | "authorizedMinor" | "totalMinor">) =>
  s.paymentStatus === "AUTHORIZED" && s.authorizedMinor < s.totalMinor
/** Releasing a hold (when there is one) goes with every exit before capture. */
const releaseIfHeld = (state: BookingState): ReadonlyArray<SideEffect> =>
  HOLDING_MONEY.includes(state.paymentStatus) ? [{ _tag: "ReleaseAuthorization" }] : []
/** The payment status of an exit: a hold being released stays AUTHORIZED until the gateway says so. */
const paymentAfterExit = (state: BookingState): PaymentStatus =>
  state.paymentStatus === "AUTHORIZED"
    ? "AUTHORIZED"
    : state.paymentStatus === "UNPAID" || state.paymentStatus === "CARD_SAVED" || state.paymentStatus === "REQUIRES_ACTION"
      ? "CANCELED"
      : state.paymentStatus

const ok = (
  next: BookingState,
  effects: ReadonlyArray<SideEffect>,
  extra: Partial<Decision> = {}
): Either.Either<Decision, TransitionError> => Either.right({ next, effects, ...extra })

/**
 * `(booking, command, actor, now) → new state + effects`, or why not. Checks, in this order: the
 * actor is a party allowed to issue the command (403), then the command is legal in the booking's
 * statuses at that time (409). Inputs (reason, rating, comment) are validated by the caller.
 */
export const transition = (state: BookingState, command: Command, actor: Actor, now: Date): Either.Either<Decision, TransitionError> => {
  const result = decideCommand(state, command, actor, now)
  // A booking that leaves PENDING and CONFIRMED (it starts, is cancelled, rejected or expires) closes its open proposal.
  const open = state.proposal
  if (!open || Either.isLeft(result)) return result
  const d = result.right
  if (d.reschedule !== undefined || RESCHEDULABLE.includes(d.next.status)) return result
  return Either.right({
    ...d,
    next: { ...d.next, proposal: null },
    reschedule: { _tag: "Close", proposalId: open.id, status: "EXPIRED", by: "SYSTEM", at: now }
  })
}

/** An accepted move raised the total of a booking holding money: the client is to authorise the new total (checkout). */
export const awaitsTopUp = (s: Pick<BookingState, "status" | "paymentStatus" | "proposal">) =>
  s.proposal?.awaitingPayment === true && s.paymentStatus === "AUTHORIZED" && RESCHEDULABLE.includes(s.status)
/** What a payment made now must authorise: the raised total of an accepted move awaiting it, else the booking's total. */
export const amountDue = (s: Pick<BookingState, "status" | "paymentStatus" | "proposal" | "totalMinor">) =>
  awaitsTopUp(s) && s.proposal ? s.proposal.totalMinor : s.totalMinor

/** Statuses in which a booking may be moved (and keeps an open proposal). */
const RESCHEDULABLE: ReadonlyArray<BookingStatus> = ["PENDING", "CONFIRMED"]
const notifyTo = (event: NotificationEvent, to: "client" | "provider"): SideEffect => ({ _tag: "Notify", event, to })
const closedBy = (party: Party) =>
  party === "client" ? "CLIENT" : party === "provider" ? "PROVIDER" : party === "admin" ? "ADMIN" : "SYSTEM"

const decideCommand = (state: BookingState, command: Command, actor: Actor, now: Date): Either.Either<Decision, TransitionError> => {
  const party = partyOf(state, actor)
  if (!ALLOWED[command._tag].includes(party)) return Either.left(NotYourBooking)
  // Built only when refused: an error captures a stack trace, and availableActions asks five times per view.
  const illegal = () => Either.left(illegalTransition(state.status, state.paymentStatus))
  const s = state
  const started = now.getTime() >= s.startTime.getTime()

  switch (command._tag) {
    case "Confirm": {
      if (s.status !== "PENDING") return illegal()
      if (!PAYMENT_SECURED.includes(s.paymentStatus) || shortHold(s)) return Either.left(PaymentNotAuthorized)
      return ok({ ...s, status: "CONFIRMED", holdExpiresAt: null }, [notify("confirmed")])
    }
    case "Reject": {
      if (s.status !== "PENDING") return illegal()
      return ok(
        { ...s, status: "REJECTED", paymentStatus: paymentAfterExit(s), holdExpiresAt: null },
        [...releaseIfHeld(s), notify("rejected")],
        {
          rejectionReason: command.reason
        }
      )
    }
    case "Cancel": {
      const cancellable: ReadonlyArray<BookingStatus> =
        party === "admin" ? ["PENDING", "CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED"] : ["PENDING", "CONFIRMED"]
      if (!cancellable.includes(s.status)) return illegal()
      if (party !== "admin" && started) return Either.left(AlreadyStarted)
      const by = party === "client" ? "CLIENT" : party === "provider" ? "PROVIDER" : "ADMIN"
      // A client's late cancellation of a confirmed booking: the fee is captured from the hold (the
      // gateway releases the rest with the capture); the payment stays AUTHORIZED until it answers.
      const fee = party === "client" ? lateCancellationFee(s, command.policy, now) : 0
      if (command.acceptedFeeMinor !== undefined && fee > command.acceptedFeeMinor) {
        return Either.left(cancellationFeeNotAccepted(fee, s.currency))
      }
      if (fee > 0) {
        return ok(
          { ...s, status: "CANCELLED", holdExpiresAt: null, cancellationFeeMinor: fee },
          [{ _tag: "Capture", amountMinor: fee }, notify("cancelled")],
          { cancellation: { by, reason: command.reason ?? "" } }
        )
      }
      return ok(
        { ...s, status: "CANCELLED", paymentStatus: paymentAfterExit(s), holdExpiresAt: null },
        [...releaseIfHeld(s), notify("cancelled")],
        {
          cancellation: { by, reason: command.reason ?? "" }
        }
      )
    }
    case "MarkRendered": {
      if (s.status !== "CONFIRMED" && s.status !== "IN_PROGRESS") return illegal()
      // A service cannot have been rendered before it began.
      if (!started) return Either.left(NotStartedYet)
      return ok({ ...s, status: "SERVICE_RENDERED", renderedAt: now }, [notify("rendered")])
    }
    case "ConfirmCompletion":
    case "Validate":
    case "AutoValidate": {
      const from: ReadonlyArray<BookingStatus> =
        command._tag === "Validate" ? ["CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED"] : ["SERVICE_RENDERED"]
      if (!from.includes(s.status)) return illegal()
      if (command._tag === "AutoValidate") {
        const due = autoValidateAt(s)
        if (due === null || now.getTime() < due.getTime()) return illegal()
      }
      const status: BookingStatus = command._tag === "ConfirmCompletion" ? "COMPLETED" : "VALIDATED"
      // The money follows the completion: a hold is captured, a saved card is authorised then captured;
      // with neither, the booking is finished unpaid and flagged with the reason.
      const collect: ReadonlyArray<SideEffect> =
        s.paymentStatus === "AUTHORIZED"
          ? [{ _tag: "Capture", amountMinor: Math.min(s.totalMinor, s.authorizedMinor) }]
          : s.paymentStatus === "CARD_SAVED"
            ? [{ _tag: "AuthorizeSavedCard" }]
            : []
      const paymentIssue: PaymentIssue | null = collect.length > 0 ? null : "NOT_SECURED"
      const review: ReadonlyArray<SideEffect> =
        command._tag === "ConfirmCompletion" ? [{ _tag: "RecordReview", rating: command.rating, comment: command.comment }] : []
      return ok({ ...s, status, renderedAt: s.renderedAt ?? now, paymentIssue }, [
        ...review,
        ...collect,
        notify(status === "COMPLETED" ? "completed" : "validated")
      ])
    }
    case "Refund": {
      if (s.paymentStatus !== "CAPTURED" && s.paymentStatus !== "PARTIALLY_REFUNDED") return illegal()
      const refundable = s.capturedMinor - s.refundedMinor
      const amount = command.amountMinor ?? refundable
      if (!Number.isInteger(amount) || amount <= 0 || amount > refundable) return Either.left(refundTooLarge(refundable, s.currency))
      return ok(s, [{ _tag: "Refund", amountMinor: amount }])
    }
    case "ProposeReschedule": {
      if (!RESCHEDULABLE.includes(s.status) || started) return Either.left(NotReschedulable)
      if (s.proposal) return Either.left(RescheduleAlreadyOpen)
      // The caller checked the time (validateProposedTime): refused here too, the rules stand alone.
      if (command.startTime.getTime() <= now.getTime()) return Either.left(invalid([issue("startTime", "booking.startInPast")]))
      if (command.endTime.getTime() <= command.startTime.getTime())
        return Either.left(invalid([issue("endTime", "booking.endBeforeStart")]))
      if (!Number.isInteger(command.totalMinor) || command.totalMinor < 1)
        return Either.left(invalid([issue("endTime", "booking.invalidDuration")]))
      const by = party === "client" ? "client" : "provider"
      const proposal: RescheduleProposal = {
        id: command.proposalId,
        by,
        startTime: command.startTime,
        endTime: command.endTime,
        totalMinor: command.totalMinor,
        expiresAt: s.startTime
      }
      return ok({ ...s, proposal }, [notifyTo("rescheduleProposed", by === "client" ? "provider" : "client")], {
        reschedule: {
          _tag: "Open",
          proposal,
          previous: { startTime: s.startTime, endTime: s.endTime, totalMinor: s.totalMinor },
          at: now
        }
      })
    }
    case "AcceptReschedule":
    case "DeclineReschedule": {
      const p = s.proposal
      // (One accepted already and awaiting the client's payment is answered.)
      if (!p || p.id !== command.proposalId || p.awaitingPayment) return Either.left(RescheduleClosed)
      // Only the other side answers a proposal.
      if (p.by === party) return Either.left(OwnProposal)
      if (now.getTime() >= p.expiresAt.getTime()) return Either.left(RescheduleClosed)
      if (!RESCHEDULABLE.includes(s.status) || started) return Either.left(NotReschedulable)
      const close = (status: "ACCEPTED" | "DECLINED"): RescheduleChange => ({
        _tag: "Close",
        proposalId: p.id,
        status,
        by: closedBy(party),
        at: now
      })
      if (command._tag === "DeclineReschedule") {
        return ok({ ...s, proposal: null }, [notifyTo("rescheduleDeclined", p.by)], { reschedule: close("DECLINED") })
      }
      // The proposed time has passed meanwhile: it can only be declined.
      if (p.startTime.getTime() <= now.getTime()) return Either.left(NotReschedulable)
      const moved = { ...s, startTime: p.startTime, endTime: p.endTime, totalMinor: p.totalMinor, proposal: null }
      // The money (booking README, "Rescheduling"): a total that does not rise keeps the payment as it is
      // (a hold covers it, a saved card is authorised for it later, an unpaid booking pays it); a higher
      // total needs the client's authorisation of the new amount through checkout. A booking that holds
      // money does not move before it: the proposal awaits the new hold (PaymentAuthorized moves the
      // booking, and only then is the old hold released); a saved card asks again.
      const raised = p.totalMinor > s.totalMinor
      if (!raised || s.paymentStatus === "UNPAID" || s.paymentStatus === "REQUIRES_ACTION") {
        return ok(moved, [notifyTo("rescheduleAccepted", p.by)], { reschedule: close("ACCEPTED") })
      }
      if (s.paymentStatus === "AUTHORIZED") {
        return ok({ ...s, proposal: { ...p, awaitingPayment: true } }, [notify("rescheduleAwaitingPayment")], {
          reschedule: { _tag: "AwaitPayment", proposalId: p.id, by: party === "client" ? "CLIENT" : "PROVIDER", at: now }
        })
      }
      if (s.paymentStatus === "CARD_SAVED") {
        return ok({ ...moved, paymentStatus: "REQUIRES_ACTION" }, [notifyTo("rescheduleAccepted", p.by)], {
          reschedule: close("ACCEPTED")
        })
      }
      return illegal()
    }
    case "RescheduleUnavailable": {
      const p = s.proposal
      if (!p?.awaitingPayment) return illegal()
      return ok({ ...s, proposal: null }, [notify("rescheduleUnavailable")], {
        reschedule: { _tag: "Close", proposalId: p.id, status: "UNAVAILABLE", by: "SYSTEM", at: now }
      })
    }
    case "ReportProblem": {
      // Between "service rendered" and the automatic validation only: after it, the money has moved.
      if (s.status !== "SERVICE_RENDERED") return Either.left(NotDisputable)
      const due = autoValidateAt(s)
      if (due === null || now.getTime() >= due.getTime()) return Either.left(NotDisputable)
      if (!(DisputeReasons as ReadonlyArray<string>).includes(command.reason))
        return Either.left(invalid([issue("reason", "booking.disputeReasonInvalid")]))
      // The hold stays (the sweep renews it); nothing is captured until an administrator decides.
      return ok({ ...s, status: "DISPUTED" }, [notify("disputeOpened")])
    }
    case "AddDisputeMessage": {
      if (s.status !== "DISPUTED") return Either.left(DisputeNotOpen)
      const to: ReadonlyArray<SideEffect> =
        party === "client"
          ? [notifyTo("disputeMessage", "provider")]
          : party === "provider"
            ? [notifyTo("disputeMessage", "client")]
            : [notify("disputeMessage")]
      return ok(s, to)
    }
    case "ResolveDispute": {
      if (s.status !== "DISPUTED") return Either.left(DisputeNotOpen)
      // What can be kept: the hold when there is one, else the total (a saved card is authorised for it).
      const max = s.paymentStatus === "AUTHORIZED" ? Math.min(s.totalMinor, s.authorizedMinor) : s.totalMinor
      let keep: number
      switch (command.outcome) {
        case "CAPTURE_ALL":
          keep = max
          break
        case "RELEASE":
          keep = 0
          break
        case "CAPTURE_PART": {
          const amount = command.amountMinor
          if (amount === undefined || !Number.isInteger(amount) || amount < 1 || amount > max)
            return Either.left(disputeAmountInvalid(max, s.currency))
          keep = amount
          break
        }
        default:
          return Either.left(invalid([issue("outcome", "booking.disputeOutcomeInvalid")]))
      }
      const resolved: BookingState = { ...s, status: "RESOLVED", resolvedCaptureMinor: keep }
      if (keep === 0) {
        // Everything released, as at any exit before capture.
        return ok({ ...resolved, paymentStatus: paymentAfterExit(s), paymentIssue: null }, [...releaseIfHeld(s), notify("disputeResolved")])
      }
      const collect: ReadonlyArray<SideEffect> =
        s.paymentStatus === "AUTHORIZED"
          ? [{ _tag: "Capture", amountMinor: Math.min(keep, s.authorizedMinor) }]
          : s.paymentStatus === "CARD_SAVED"
            ? [{ _tag: "AuthorizeSavedCard" }]
            : []
      return ok({ ...resolved, paymentIssue: collect.length > 0 ? null : "NOT_SECURED" }, [...collect, notify("disputeResolved")])
    }
    case "ExpireReschedule": {
      const p = s.proposal
      if (!p || now.getTime() < p.expiresAt.getTime()) return illegal()
      return ok({ ...s, proposal: null }, [], {
        reschedule: { _tag: "Close", proposalId: p.id, status: "EXPIRED", by: "SYSTEM", at: now }
      })
    }
    case "ExpireHold": {
      if (s.status !== "PENDING" || !CHECKOUT_OPEN.includes(s.paymentStatus)) return illegal()
      if (s.holdExpiresAt === null || now.getTime() < s.holdExpiresAt.getTime()) return illegal()
      return ok({ ...s, status: "CANCELLED", paymentStatus: "CANCELED", holdExpiresAt: null }, [notify("expired")], {
        cancellation: { by: "SYSTEM", reason: "EXPIRED" }
      })
    }
    case "Start": {
      if (!started) return illegal()
      // A request nobody confirmed (or paid) in time is over: the slot and any hold are released.
      if (s.status === "PENDING") {
        return ok(
          { ...s, status: "CANCELLED", paymentStatus: paymentAfterExit(s), holdExpiresAt: null },
          [...releaseIfHeld(s), notify("expired")],
          {
            cancellation: { by: "SYSTEM", reason: "NOT_CONFIRMED_IN_TIME" }
          }
        )
      }
      if (s.status !== "CONFIRMED") return illegal()
      return ok({ ...s, status: "IN_PROGRESS" }, [])
    }
    case "CardSaved": {
      if (s.status !== "PENDING" && s.status !== "CONFIRMED") return illegal()
      if (!CHECKOUT_OPEN.includes(s.paymentStatus)) return illegal()
      return ok({ ...s, paymentStatus: "CARD_SAVED", holdExpiresAt: null }, [notify("paymentAuthorized")])
    }
    case "PaymentAuthorized": {
      if (!Number.isInteger(command.amountMinor) || command.amountMinor <= 0) return illegal()
      // The gateway repeating the answer of the hold a finished booking awaits the capture of: nothing to do.
      if (isTerminal(s.status) && s.paymentStatus === "AUTHORIZED") return ok(s, [])
      // A finished booking waiting for its money (its saved card collected at completion, or paid again): captured at once.
      if (wantsCapture(s) && COLLECTABLE.includes(s.paymentStatus) && command.amountMinor >= s.totalMinor) {
        return ok(
          {
            ...s,
            paymentStatus: "AUTHORIZED",
            authorizedMinor: command.amountMinor,
            authorizationExpiresAt: command.expiresAt,
            holdExpiresAt: null
          },
          [{ _tag: "Capture", amountMinor: captureTarget(s) }]
        )
      }
      // The client's authorisation of the raised total of an accepted move: the booking moves now (the
      // service re-checks the slot on storing it) and the hold it replaces is released once this one is recorded.
      // (A hold short of the new total is not it: a renewal of the current hold, say, is handled below.)
      const p = s.proposal
      if (p?.awaitingPayment && s.paymentStatus === "AUTHORIZED" && command.amountMinor >= p.totalMinor) {
        // Too late to move (started, or the proposed time passed): refused, the caller releases this hold.
        if (!RESCHEDULABLE.includes(s.status) || started || p.startTime.getTime() <= now.getTime()) return illegal()
        return ok(
          {
            ...s,
            startTime: p.startTime,
            endTime: p.endTime,
            totalMinor: p.totalMinor,
            authorizedMinor: command.amountMinor,
            authorizationExpiresAt: command.expiresAt,
            proposal: null
          },
          [{ _tag: "ReleaseReplacedAuthorization" }, notify("rescheduleMoved")],
          { reschedule: { _tag: "Close", proposalId: p.id, status: "ACCEPTED", by: p.by === "client" ? "PROVIDER" : "CLIENT", at: now } }
        )
      }
      const open = ["UNPAID", "REQUIRES_ACTION", "CARD_SAVED", "AUTHORIZED"].includes(s.paymentStatus)
      // A hold for a booking that is over (or already paid), or short of the total, is released at once.
      if (isTerminal(s.status) || !open || command.amountMinor < s.totalMinor) {
        return ok(s, [{ _tag: "ReleaseAuthorization" }])
      }
      const first = s.paymentStatus !== "AUTHORIZED" && s.paymentStatus !== "CARD_SAVED"
      return ok(
        {
          ...s,
          paymentStatus: "AUTHORIZED",
          authorizedMinor: command.amountMinor,
          authorizationExpiresAt: command.expiresAt,
          holdExpiresAt: null
        },
        first ? [notify("paymentAuthorized")] : []
      )
    }
    case "AuthorizationFailed": {
      // The saved card of a finished booking was refused when collected: flagged for an administrator.
      if (wantsCapture(s) && s.paymentStatus === "CARD_SAVED") {
        return ok({ ...s, paymentStatus: "REQUIRES_ACTION", paymentIssue: "AUTHORIZATION_FAILED" }, [])
      }
      if (isTerminal(s.status)) return illegal()
      // A card refused at checkout: the client is on the payment page and can try another card.
      if (s.paymentStatus === "UNPAID" || s.paymentStatus === "REQUIRES_ACTION") return ok(s, [])
      if (s.paymentStatus !== "CARD_SAVED" && s.paymentStatus !== "AUTHORIZED") return illegal()
      return ok(
        { ...s, paymentStatus: "REQUIRES_ACTION", authorizedMinor: 0, authorizationExpiresAt: null },
        command.needsClient ? [notify("paymentActionRequired")] : []
      )
    }
    case "PaymentCaptured": {
      if (s.paymentStatus !== "AUTHORIZED" || !wantsCapture(s)) return illegal()
      const limit = Math.min(s.authorizedMinor, captureTarget(s))
      if (!Number.isInteger(command.amountMinor) || command.amountMinor <= 0 || command.amountMinor > limit) return illegal()
      return ok({ ...s, paymentStatus: "CAPTURED", capturedMinor: command.amountMinor, authorizationExpiresAt: null, paymentIssue: null }, [
        notifyTo("receipt", "client")
      ])
    }
    case "AuthorizationReleased": {
      if (s.paymentStatus !== "AUTHORIZED") return illegal()
      // Released while the booking still needs the money (an expired hold): the client pays again.
      const stillNeeded = !isTerminal(s.status)
      // Released because a move raised the total: the client was told to pay the new amount already.
      const repriced = shortHold(s)
      // Released before a finished booking's capture (a lapsed hold): nothing is left to capture, flagged.
      const lost = wantsCapture(s)
      return ok(
        {
          ...s,
          paymentStatus: stillNeeded ? "REQUIRES_ACTION" : "CANCELED",
          authorizedMinor: 0,
          authorizationExpiresAt: null,
          ...(lost ? { paymentIssue: "HOLD_RELEASED" as const } : {})
        },
        stillNeeded && !repriced ? [notify("paymentActionRequired")] : []
      )
    }
    case "PaymentRefunded": {
      if (s.paymentStatus !== "CAPTURED" && s.paymentStatus !== "PARTIALLY_REFUNDED") return illegal()
      const total = command.totalRefundedMinor
      if (!Number.isInteger(total) || total <= s.refundedMinor || total > s.capturedMinor) return illegal()
      // A refund that went through settles a failed one an administrator was told of.
      const paymentIssue = s.paymentIssue === "REFUND_FAILED" ? null : s.paymentIssue
      return ok(
        { ...s, paymentStatus: total === s.capturedMinor ? "REFUNDED" : "PARTIALLY_REFUNDED", refundedMinor: total, paymentIssue },
        [notify("refunded")]
      )
    }
    case "RefundFailed": {
      if (s.paymentStatus !== "REFUNDED" && s.paymentStatus !== "PARTIALLY_REFUNDED") return illegal()
      const total = command.totalRefundedMinor
      if (!Number.isInteger(total) || total < 0 || total >= s.refundedMinor) return illegal()
      // The money is back with the platform: an administrator refunds again, or settles it with the client.
      return ok(
        { ...s, paymentStatus: total === 0 ? "CAPTURED" : "PARTIALLY_REFUNDED", refundedMinor: total, paymentIssue: "REFUND_FAILED" },
        []
      )
    }
  }
}

// ---- Timers: what is due, and when -------------------------------------------------------------

/** The time-driven command due on a booking at `now`, if any (the sweep applies it). */
export const dueCommand = (s: BookingState, now: Date): Command | undefined => {
  const t = now.getTime()
  if (s.status === "PENDING" && CHECKOUT_OPEN.includes(s.paymentStatus) && s.holdExpiresAt !== null && t >= s.holdExpiresAt.getTime()) {
    return { _tag: "ExpireHold" }
  }
  // An open proposal lapses at the booking's start (the start itself follows at the next tick).
  if (s.proposal && t >= s.proposal.expiresAt.getTime()) return { _tag: "ExpireReschedule" }
  if ((s.status === "PENDING" || s.status === "CONFIRMED") && t >= s.startTime.getTime()) return { _tag: "Start" }
  const autoValidation = autoValidateAt(s)
  if (s.status === "SERVICE_RENDERED" && autoValidation !== null && t >= autoValidation.getTime()) return { _tag: "AutoValidate" }
  return undefined
}

/** Money work due at `now`: authorise a saved card, or renew a hold that would lapse while still needed. */
export const dueAuthorization = (s: BookingState, now: Date): "authorize" | "renew" | undefined => {
  if (isTerminal(s.status)) return undefined
  const t = now.getTime()
  if (s.paymentStatus === "CARD_SAVED" && t >= authorizeAt(s.startTime).getTime()) return "authorize"
  if (
    s.paymentStatus === "AUTHORIZED" &&
    !shortHold(s) &&
    s.authorizationExpiresAt !== null &&
    t >= s.authorizationExpiresAt.getTime() - RENEWAL_MARGIN_HOURS * HOUR
  )
    return "renew"
  return undefined
}

// ---- What users see -------------------------------------------------------------------------

/**
 * The status label of the spec: a pending request whose payment is secured shows as PAID
 * ("payment completed"); otherwise the booking status itself.
 */
export const displayStatus = (s: Pick<BookingState, "status" | "paymentStatus">): BookingStatus | "PAID" =>
  s.status === "PENDING" && PAYMENT_SECURED.includes(s.paymentStatus) ? "PAID" : s.status

/** What the given party may do now (the UI shows these buttons; the server decides anyway). */
export const availableActions = (s: BookingState, actor: Actor, now: Date): ReadonlyArray<BookingAction> => {
  const out: Array<BookingAction> = []
  const tryIt = (command: Command) => Either.isRight(transition(s, command, actor, now))
  if (tryIt({ _tag: "Confirm" })) out.push("confirm")
  if (tryIt({ _tag: "Reject", reason: "x" })) out.push("reject")
  if (tryIt({ _tag: "Cancel", policy: NO_FEE_POLICY })) out.push("cancel")
  if (tryIt({ _tag: "MarkRendered" })) out.push("markRendered")
  if (tryIt({ _tag: "ConfirmCompletion", rating: 5, comment: "x" })) out.push("confirmCompletion")
  if (tryIt({ _tag: "ReportProblem", reason: "OTHER" })) out.push("reportProblem")
  if (partyOf(s, actor) === "client" && !isTerminal(s.status) && (CHECKOUT_OPEN.includes(s.paymentStatus) || awaitsTopUp(s)))
    out.push("pay")
  const later = now.getTime() + DAY
  if (tryIt({ _tag: "ProposeReschedule", proposalId: "", startTime: new Date(later), endTime: new Date(later + HOUR), totalMinor: 1 }))
    out.push("reschedule")
  return out
}

// ---- The administrators' status change (spec admin section 4, CLI bookings:status) ----------------

/** The six statuses the back-office offers. */
export const AdminStatuses = ["PENDING", "CONFIRMED", "COMPLETED", "CANCELLED", "REJECTED", "VALIDATED"] as const
export const NoAdminTransition = (status: string) =>
  new Conflict({ code: "BOOKING_INVALID_TRANSITION", key: "booking.noAdminTransition", params: { status } })

/**
 * The command an administrator's "set status" stands for. An admin confirms, rejects (with a reason),
 * cancels or validates (which captures); COMPLETED needs the client's review and PENDING cannot be
 * re-entered, so those are refused rather than forced around the rules.
 */
export const adminCommandFor = (status: string, reason: string | undefined): Either.Either<Command, Conflict | ValidationFailed> => {
  switch (status.trim().toUpperCase()) {
    case "CONFIRMED":
      return Either.right({ _tag: "Confirm" })
    case "REJECTED":
      return Either.map(validateReason(reason), (text) => ({ _tag: "Reject" as const, reason: text }))
    case "CANCELLED":
      return Either.right({ _tag: "Cancel", reason: reason?.trim() ?? "", policy: NO_FEE_POLICY })
    case "VALIDATED":
      return Either.right({ _tag: "Validate" })
    default:
      return Either.left(NoAdminTransition(status))
  }
}

/**
 * The statuses an administrator's "set status" would reach on this booking now: each of the
 * back-office's statuses whose command (adminCommandFor) the transition function accepts from this
 * actor. The admin screen's menu offers only these; the server decides anyway (409 otherwise).
 */
export const allowedAdminStatuses = (s: BookingState, actor: Actor, now: Date): ReadonlyArray<(typeof AdminStatuses)[number]> =>
  AdminStatuses.filter((status) => {
    // A reason stands in for the one a rejection needs (its text is validated when the admin sends it).
    const command = adminCommandFor(status, "x")
    return Either.isRight(command) && Either.isRight(transition(s, command.right, actor, now))
  })

// ---- An administrator's refund (issue 13 item 3: the back-office and `payments:refund`) -------------

/** Nothing captured is left to refund (never captured, released, or refunded in full already). */
export const NothingToRefund = new Conflict({ code: "NOTHING_TO_REFUND", key: "booking.nothingToRefund" })
/** The amount asked is above what is left to refund (`max`: an amountParam, written in the reader's language). */
export const refundAboveRefundable = (max: string) =>
  new ValidationFailed({
    code: "REFUND_TOO_LARGE",
    key: "booking.refundAboveRefundable",
    params: { max },
    details: [issue("amountMinor", "booking.refundAboveRefundable")]
  })

export interface RefundRequest {
  /** Minor units of the booking's currency; undefined: everything left to refund. */
  readonly amountMinor: number | undefined
  readonly reason: string
}

/**
 * Checks an administrator's refund before it is decided: a reason (required, REASON_MAX at most) and
 * an amount that is a positive whole number of minor units (absent: the whole refundable amount).
 * The 409 and the amount's ceiling are the caller's, with the booking in hand (refundableOf).
 */
export const validateRefund = (input: {
  readonly amountMinor?: unknown
  readonly reason?: unknown
}): Either.Either<RefundRequest, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const amount = input.amountMinor
  const missing = amount === undefined || amount === null || amount === ""
  const n = typeof amount === "string" && amount.trim() !== "" ? Number(amount) : amount
  if (!missing && (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0))
    problems.push(issue("amountMinor", "booking.refundAmountInvalid"))
  const reason = typeof input.reason === "string" ? input.reason.trim() : ""
  if (reason === "") problems.push(issue("reason", "booking.refundReasonRequired"))
  else if (reason.length > REASON_MAX) problems.push(issue("reason", "validation.tooLong"))
  if (problems.length > 0) return Either.left(invalid(problems))
  return Either.right({ amountMinor: missing ? undefined : (n as number), reason })
}

/** What is left to refund of a booking's captured money (0 when none was captured). */
export const refundableOf = (s: Pick<BookingState, "paymentStatus" | "capturedMinor" | "refundedMinor">) =>
  s.paymentStatus === "CAPTURED" || s.paymentStatus === "PARTIALLY_REFUNDED" ? Math.max(0, s.capturedMinor - s.refundedMinor) : 0
