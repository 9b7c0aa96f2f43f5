// Booking's literal lists and input limits, in a file that imports nothing: the domain, the contract
// and the UI (its forms check the same limits before sending) share it.

export const BookingStatuses = [
  "PENDING",
  "CONFIRMED",
  "IN_PROGRESS",
  "SERVICE_RENDERED",
  "DISPUTED",
  "RESOLVED",
  "COMPLETED",
  "VALIDATED",
  "REJECTED",
  "CANCELLED"
] as const
export type BookingStatus = (typeof BookingStatuses)[number]

/**
 * UNPAID: nothing held yet. CARD_SAVED: the card is saved and will be authorised off-session a few
 * days before the service (a hold lasts about 7 days). AUTHORIZED: an amount is held (manual
 * capture). REQUIRES_ACTION: an off-session authorisation needs the client (authentication or a
 * decline): they pay on-session again. CAPTURED, PARTIALLY_REFUNDED, REFUNDED: money moved.
 * CANCELED: the hold was released. FAILED: nothing can be collected any more.
 */
export const PaymentStatuses = [
  "UNPAID",
  "CARD_SAVED",
  "AUTHORIZED",
  "REQUIRES_ACTION",
  "CAPTURED",
  "PARTIALLY_REFUNDED",
  "REFUNDED",
  "CANCELED",
  "FAILED"
] as const
export type PaymentStatus = (typeof PaymentStatuses)[number]

/**
 * What one payment operation did, as a booking's payment timeline names it: the card held (the first
 * authorisation) or held again (a renewal), a card saved for later, money charged, a hold released,
 * money refunded, a payment that failed.
 */
export const PaymentEvents = ["held", "renewed", "cardSaved", "captured", "released", "refunded", "refundFailed", "failed"] as const
export type PaymentEvent = (typeof PaymentEvents)[number]

/** What the viewer of a booking may do with it (the view's `actions`). */
export const BookingActions = [
  "confirm",
  "reject",
  "cancel",
  "markRendered",
  "confirmCompletion",
  "pay",
  "reschedule",
  "reportProblem"
] as const
export type BookingAction = (typeof BookingActions)[number]

/** A booking covers at most a week, and starts at most a year ahead. */
export const MAX_DURATION_MINUTES = 7 * 24 * 60
export const MAX_ADVANCE_DAYS = 365

export const ADDRESS_MAX = 300
export const NOTES_MAX = 1000
export const REASON_MAX = 1000
export const COMMENT_MAX = 2000
export const RATING_MIN = 1
export const RATING_MAX = 5

/**
 * The recorded reasons a finished booking is not paid. NOT_SECURED: it was completed while no hold or
 * saved card stood behind it (an off-session authorisation had failed before). AUTHORIZATION_FAILED:
 * the saved card was refused when collected at completion. HOLD_RELEASED: the hold lapsed or was
 * released before it could be captured.
 */
export const PaymentIssues = ["NOT_SECURED", "AUTHORIZATION_FAILED", "HOLD_RELEASED", "REFUND_FAILED"] as const
export type PaymentIssue = (typeof PaymentIssues)[number]

/** Billing details as the checkout step sends them (spec section 5); anything but a string counts as blank. */
export interface BillingInput {
  readonly name?: unknown
  readonly email?: unknown
  readonly address?:
    | { readonly line1?: unknown; readonly city?: unknown; readonly postal_code?: unknown; readonly country?: unknown }
    | null
    | undefined
}
export type BillingProblem = "required" | "email"

const BILLING_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

/**
 * The checkout step's rule, on the server and in the form alike: every field non-blank, the email well
 * formed. Keys are the payload's paths ("address.postal_code"); none when the details are complete.
 */
export const billingProblems = (details: BillingInput): Record<string, BillingProblem> => {
  const problems: Record<string, BillingProblem> = {}
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "")
  const fields: ReadonlyArray<readonly [string, unknown]> = [
    ["name", details.name],
    ["email", details.email],
    ["address.line1", details.address?.line1],
    ["address.city", details.address?.city],
    ["address.postal_code", details.address?.postal_code],
    ["address.country", details.address?.country]
  ]
  for (const [field, value] of fields) {
    if (text(value) === "") problems[field] = "required"
    else if (field === "email" && !BILLING_EMAIL.test(text(value))) problems[field] = "email"
  }
  return problems
}

/**
 * A proposal to move a booking (issue 12): OPEN until the other party accepts or declines it, or it
 * lapses (EXPIRED) at the booking's start or when the booking ends otherwise (cancelled, rejected).
 */
/**
 * OPEN awaits the other party's answer; AWAITING_PAYMENT was accepted but raises the total of a booking
 * that holds money: it waits for the client's authorisation of the new total before the booking moves;
 * UNAVAILABLE: that authorisation arrived once the new time was taken (the new hold is released).
 */
export const RescheduleStatuses = ["OPEN", "AWAITING_PAYMENT", "ACCEPTED", "DECLINED", "EXPIRED", "UNAVAILABLE"] as const
export type RescheduleStatus = (typeof RescheduleStatuses)[number]

/**
 * Where a booking's money stands for its provider (`/provider/earnings`, issue 13): held (authorised,
 * not captured yet), captured, partly or wholly refunded. Payouts to the provider's bank are made by
 * the gateway on its own schedule and are not recorded by the marketplace, so no state says "paid out".
 */
export const EarningStates = ["HELD", "CAPTURED", "PARTIALLY_REFUNDED", "REFUNDED"] as const
export type EarningState = (typeof EarningStates)[number]
/**
 * A dispute (issue 13): the client reports a problem between "service rendered" and the capture.
 * NOT_DONE: the service was not given; PARTLY_DONE: only part of it; QUALITY: given badly; OTHER.
 */
export const DisputeReasons = ["NOT_DONE", "PARTLY_DONE", "QUALITY", "OTHER"] as const
export type DisputeReason = (typeof DisputeReasons)[number]
/** An administrator's decision: capture the whole amount, part of it, or release everything. */
export const DisputeOutcomes = ["CAPTURE_ALL", "CAPTURE_PART", "RELEASE"] as const
export type DisputeOutcome = (typeof DisputeOutcomes)[number]
export const DisputeStatuses = ["OPEN", "RESOLVED"] as const
export type DisputeStatus = (typeof DisputeStatuses)[number]
export const DISPUTE_DESCRIPTION_MAX = 4000
export const DISPUTE_MESSAGE_MAX = 4000
export const DISPUTE_NOTE_MAX = 2000
/** Files (photos or PDF) one report or one message may carry. */
export const DISPUTE_FILES_MAX = 3
/** The multipart fields of those files: file1, file2, file3. */
export const DisputeFileFields = ["file1", "file2", "file3"] as const

/**
 * Until when a client cancels a confirmed booking free of charge: `freeHours` before its start. The
 * server's fee rule and the booking form's warning (a slot already inside the window) read it alike.
 */
export const freeCancellationUntil = (s: { readonly startTime: Date }, policy: { readonly freeHours: number }) =>
  new Date(s.startTime.getTime() - policy.freeHours * 3_600_000)
