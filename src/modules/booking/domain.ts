import { Either } from "effect"
import { Conflict, type FieldIssue, Forbidden, invalid, issue, NotFound, ValidationFailed } from "../../platform/errors"
import {
  ADDRESS_MAX,
  type BookingAction,
  type BookingStatus,
  COMMENT_MAX,
  NOTES_MAX,
  type PaymentIssue,
  type PaymentStatus,
  RATING_MAX,
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
  type PaymentIssue,
  PaymentIssues,
  type PaymentStatus,
  PaymentStatuses
} from "./rules"

/** Statuses that hold the provider's time slot (the exclusion constraint uses the same list). */
export const SLOT_HOLDING: ReadonlyArray<BookingStatus> = [
  "PENDING",
  "CONFIRMED",
  "IN_PROGRESS",
  "SERVICE_RENDERED",
  "COMPLETED",
  "VALIDATED"
]
/** No user command changes a booking in these statuses (an admin may still refund money). */
export const TERMINAL: ReadonlyArray<BookingStatus> = ["COMPLETED", "VALIDATED", "REJECTED", "CANCELLED"]
export const isTerminal = (status: BookingStatus) => TERMINAL.includes(status)
/** Money may leave the client's card only once the service is done and accepted. */
export const CAPTURABLE: ReadonlyArray<BookingStatus> = ["COMPLETED", "VALIDATED"]

// ---- Business constants ----------------------------------------------------------------------

/** An unpaid request holds its slot this long, then expires (the client is sent to pay at once). */
export const HOLD_MINUTES = 30
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
export { ADDRESS_MAX, COMMENT_MAX, NOTES_MAX, REASON_MAX } from "./rules"
/** A booking covers at most a week, and starts at most a year ahead. */
export const MAX_DURATION_MINUTES = 7 * 24 * 60
export const MAX_ADVANCE_DAYS = 365

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

// ---- Money -----------------------------------------------------------------------------------

/** Total = hourly price × hours, in the currency's minor unit, rounded to the nearest unit. */
export const totalFor = (hourlyPriceMinor: number, minutes: number) => Math.round((hourlyPriceMinor * minutes) / 60)
/** The platform's fee on an amount (recomputed on whatever is actually captured). */
export const commissionOf = (amountMinor: number) => Math.round((amountMinor * COMMISSION_PERCENT) / 100)

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
  | { readonly _tag: "Cancel"; readonly reason?: string | undefined }
  | { readonly _tag: "MarkRendered" }
  | { readonly _tag: "ConfirmCompletion"; readonly rating: number; readonly comment: string }
  | { readonly _tag: "Validate" }
  | { readonly _tag: "Refund"; readonly amountMinor?: number | undefined }
  // Time
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
export type CommandTag = Command["_tag"]

/** What the service must do after storing the new state (after the transaction commits): money movements, mails, the review. */
export type SideEffect =
  | { readonly _tag: "Capture"; readonly amountMinor: number }
  | { readonly _tag: "ReleaseAuthorization" }
  /** Authorise the saved card off-session now (a booking completed before its card was authorised); the hold is then captured. */
  | { readonly _tag: "AuthorizeSavedCard" }
  | { readonly _tag: "Refund"; readonly amountMinor: number }
  | { readonly _tag: "Notify"; readonly event: NotificationEvent }
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
  "refunded"
] as const
export type NotificationEvent = (typeof NotificationEvents)[number]

export interface Decision {
  readonly next: BookingState
  readonly effects: ReadonlyArray<SideEffect>
  /** Stored with the booking when set. */
  readonly rejectionReason?: string
  readonly cancellation?: { readonly by: "CLIENT" | "PROVIDER" | "ADMIN" | "SYSTEM"; readonly reason: string }
}

// ---- Errors ----------------------------------------------------------------------------------

export const BookingNotFound = new NotFound({ code: "BOOKING_NOT_FOUND", key: "booking.notFound" })
export const NotYourBooking = new Forbidden({ code: "BOOKING_FORBIDDEN", key: "booking.forbidden" })
export const illegalTransition = (status: BookingStatus, paymentStatus: PaymentStatus) =>
  new Conflict({ code: "BOOKING_INVALID_TRANSITION", key: "booking.invalidTransition", params: { status, paymentStatus } })
export const SlotTaken = new Conflict({ code: "BOOKING_SLOT_TAKEN", key: "booking.slotTaken" })
export const OwnService = new Forbidden({ code: "BOOKING_OWN_SERVICE", key: "booking.ownService" })
export const ServiceUnavailable = new Conflict({ code: "SERVICE_UNAVAILABLE", key: "booking.serviceUnavailable" })
export const PaymentNotAuthorized = new Conflict({ code: "PAYMENT_NOT_AUTHORIZED", key: "booking.paymentNotAuthorized" })
export const AlreadyStarted = new Conflict({ code: "BOOKING_ALREADY_STARTED", key: "booking.alreadyStarted" })
export const NotStartedYet = new Conflict({ code: "BOOKING_NOT_STARTED", key: "booking.notStartedYet" })
export const refundTooLarge = (maxMinor: number) =>
  new ValidationFailed({
    code: "VALIDATION_ERROR",
    key: "booking.refundTooLarge",
    params: { max: String(maxMinor) },
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
  ExpireHold: ["system"],
  Start: ["system"],
  AutoValidate: ["system"],
  CardSaved: ["system"],
  PaymentAuthorized: ["system"],
  AuthorizationFailed: ["system"],
  PaymentCaptured: ["system"],
  AuthorizationReleased: ["system"],
  PaymentRefunded: ["system"]
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
 * Checks a booking request at `now`: start and end present and valid, end after start, start in the
 * future and within a year, at most a week long, whole minutes, an address; notes optional.
 */
export const validateBookingRequest = (input: BookingRequestInput, now: Date): Either.Either<BookingRequest, ValidationFailed> => {
  const problems: Array<FieldIssue> = []
  const serviceId = typeof input.serviceId === "string" ? input.serviceId.trim() : ""
  if (serviceId === "") problems.push(issue("serviceId", "validation.required"))
  const rawStart = input.startTime ?? undefined
  const rawEnd = input.endTime ?? undefined
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
  fields: { readonly id: string; readonly clientId: string; readonly providerId: string; readonly hourlyPriceMinor: number },
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
  authorizedMinor: 0,
  capturedMinor: 0,
  refundedMinor: 0,
  holdExpiresAt: new Date(now.getTime() + HOLD_MINUTES * MINUTE),
  authorizationExpiresAt: null,
  renderedAt: null,
  paymentIssue: null
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
  const party = partyOf(state, actor)
  if (!ALLOWED[command._tag].includes(party)) return Either.left(NotYourBooking)
  // Built only when refused: an error captures a stack trace, and availableActions asks five times per view.
  const illegal = () => Either.left(illegalTransition(state.status, state.paymentStatus))
  const s = state
  const started = now.getTime() >= s.startTime.getTime()

  switch (command._tag) {
    case "Confirm": {
      if (s.status !== "PENDING") return illegal()
      if (!PAYMENT_SECURED.includes(s.paymentStatus)) return Either.left(PaymentNotAuthorized)
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
      if (!Number.isInteger(amount) || amount <= 0 || amount > refundable) return Either.left(refundTooLarge(refundable))
      return ok(s, [{ _tag: "Refund", amountMinor: amount }])
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
      if (CAPTURABLE.includes(s.status) && COLLECTABLE.includes(s.paymentStatus) && command.amountMinor >= s.totalMinor) {
        return ok(
          {
            ...s,
            paymentStatus: "AUTHORIZED",
            authorizedMinor: command.amountMinor,
            authorizationExpiresAt: command.expiresAt,
            holdExpiresAt: null
          },
          [{ _tag: "Capture", amountMinor: s.totalMinor }]
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
      if (CAPTURABLE.includes(s.status) && s.paymentStatus === "CARD_SAVED") {
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
      if (s.paymentStatus !== "AUTHORIZED" || !CAPTURABLE.includes(s.status)) return illegal()
      const limit = Math.min(s.authorizedMinor, s.totalMinor)
      if (!Number.isInteger(command.amountMinor) || command.amountMinor <= 0 || command.amountMinor > limit) return illegal()
      return ok(
        { ...s, paymentStatus: "CAPTURED", capturedMinor: command.amountMinor, authorizationExpiresAt: null, paymentIssue: null },
        []
      )
    }
    case "AuthorizationReleased": {
      if (s.paymentStatus !== "AUTHORIZED") return illegal()
      // Released while the booking still needs the money (an expired hold): the client pays again.
      const stillNeeded = !isTerminal(s.status)
      // Released before a finished booking's capture (a lapsed hold): nothing is left to capture, flagged.
      const lost = CAPTURABLE.includes(s.status)
      return ok(
        {
          ...s,
          paymentStatus: stillNeeded ? "REQUIRES_ACTION" : "CANCELED",
          authorizedMinor: 0,
          authorizationExpiresAt: null,
          ...(lost ? { paymentIssue: "HOLD_RELEASED" as const } : {})
        },
        stillNeeded ? [notify("paymentActionRequired")] : []
      )
    }
    case "PaymentRefunded": {
      if (s.paymentStatus !== "CAPTURED" && s.paymentStatus !== "PARTIALLY_REFUNDED") return illegal()
      const total = command.totalRefundedMinor
      if (!Number.isInteger(total) || total <= s.refundedMinor || total > s.capturedMinor) return illegal()
      return ok({ ...s, paymentStatus: total === s.capturedMinor ? "REFUNDED" : "PARTIALLY_REFUNDED", refundedMinor: total }, [
        notify("refunded")
      ])
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
  if (tryIt({ _tag: "Cancel" })) out.push("cancel")
  if (tryIt({ _tag: "MarkRendered" })) out.push("markRendered")
  if (tryIt({ _tag: "ConfirmCompletion", rating: 5, comment: "x" })) out.push("confirmCompletion")
  if (
    partyOf(s, actor) === "client" &&
    s.status !== "CANCELLED" &&
    s.status !== "REJECTED" &&
    !isTerminal(s.status) &&
    CHECKOUT_OPEN.includes(s.paymentStatus)
  )
    out.push("pay")
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
      return Either.right({ _tag: "Cancel", reason: reason?.trim() ?? "" })
    case "VALIDATED":
      return Either.right({ _tag: "Validate" })
    default:
      return Either.left(NoAdminTransition(status))
  }
}
