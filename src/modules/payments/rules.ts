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
  current !== null && !refundCounts(current) ? current : reported

/** Whether a refund in this state counts as given back (in the booking's and the platform's figures). */
export const refundCounts = (status: RefundStatus) => status === "pending" || status === "succeeded"

/**
 * Whether a payment operation counts in money figures: every one but a refund that gave nothing back
 * (PostgreSQL's `counted_payment_operations` view says the same).
 */
export const countsInFigures = (operation: { readonly refundStatus?: RefundStatus | null | undefined }) =>
  operation.refundStatus === null || operation.refundStatus === undefined || refundCounts(operation.refundStatus)

/**
 * Stripe's settlement regions for destination charges: a charge settles on the platform only for a
 * connected account of the platform's region; across regions it must settle on the connected account
 * (`on_behalf_of`). Europe is one region (the EEA, the United Kingdom and Switzerland).
 */
const EUROPE = new Set([
  "AT",
  "BE",
  "BG",
  "CH",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LI",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK"
])
export const settlementRegionOf = (country: string): string => {
  const code = country.trim().toUpperCase()
  return EUROPE.has(code) ? "EUROPE" : code
}

/** Whether a charge for a connected account in `accountCountry` must settle on it (`on_behalf_of`). */
export const needsOnBehalfOf = (platformCountry: string, accountCountry: string) =>
  accountCountry.trim() !== "" && settlementRegionOf(platformCountry) !== settlementRegionOf(accountCountry)

/** What Stripe still needs (past due first, each once) and why it restricted the account. */
export const requirementsOf = (
  requirements:
    | {
        readonly past_due?: ReadonlyArray<string> | null
        readonly currently_due?: ReadonlyArray<string> | null
        readonly disabled_reason?: string | null
      }
    | null
    | undefined
) => ({
  requirementsDue: [...new Set([...(requirements?.past_due ?? []), ...(requirements?.currently_due ?? [])])],
  disabledReason: requirements?.disabled_reason ?? null
})
