// Payments' literal lists, in a file that imports nothing: the domain and the UI (the payout setup) share it.

/**
 * Countries a provider may choose for the connected account: where the marketplace operates and
 * where Stripe Express accounts can receive card payments and transfers (docs/operations.md).
 */
export const ALLOWED_COUNTRIES = ["CA", "FR", "US", "BE", "CH", "GB", "DE", "ES", "IT", "NL", "LU", "IE", "PT", "AT"] as const
export type Country = (typeof ALLOWED_COUNTRIES)[number]
