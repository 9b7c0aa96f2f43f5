// Payments' literal lists, in a file that imports nothing: the domain and the UI (the payout setup) share it.

/**
 * Countries a provider may choose for the connected account: where the marketplace operates and
 * where Stripe Express accounts can receive card payments and transfers (docs/operations.md).
 */
export const ALLOWED_COUNTRIES = ["CA", "FR", "US", "BE", "CH", "GB", "DE", "ES", "IT", "NL", "LU", "IE", "PT", "AT"] as const
export type Country = (typeof ALLOWED_COUNTRIES)[number]

/**
 * What the gateway says of a refund (Stripe's `refund.status`; `requires_action` is read as pending).
 * A failed or canceled refund gave nothing back.
 */
export const RefundStatuses = ["pending", "succeeded", "failed", "canceled"] as const
export type RefundStatus = (typeof RefundStatuses)[number]
/** Stripe's refund status as the app keeps it: `requires_action` (a bank asked something) is still pending. */
export const refundStatusOf = (status: string | null | undefined): RefundStatus =>
  status === "succeeded" || status === "failed" || status === "canceled" ? status : "pending"

/** A refund's state after a report: failed and canceled are final (a late "succeeded" is an older view of it). */
export const refundStatusAfter = (current: RefundStatus | null, reported: RefundStatus): RefundStatus =>
  current === "failed" || current === "canceled" ? current : reported

/** Whether a refund in this state counts as given back (in the booking's and the platform's figures). */
export const refundCounts = (status: RefundStatus) => status === "pending" || status === "succeeded"

/**
 * Whether a payment operation counts in money figures: every one but a refund that gave nothing back
 * (PostgreSQL's `counted_payment_operations` view says the same).
 */
export const countsInFigures = (operation: { readonly refundStatus?: RefundStatus | null | undefined }) =>
  operation.refundStatus === null || operation.refundStatus === undefined || refundCounts(operation.refundStatus)
