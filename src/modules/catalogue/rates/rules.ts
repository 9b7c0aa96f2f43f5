// Exchange rates' literal rules, in a file that imports nothing: the domain, the contract and the UI share it.

/** Every rate is the price of one unit of this currency (the ECB's convention: 1 EUR = 1.4567 CAD). */
export const REFERENCE_CURRENCY = "EUR"

/** Rates are kept exactly in millionths (1.4567 CAD per EUR: 1456700), never as a float. */
export const RATE_SCALE = 1_000_000
export const RATE_DECIMALS = 6
/** Bounds of an acceptable rate (units of the currency per EUR). */
export const RATE_MIN = 0.000001
export const RATE_MAX = 1_000_000

/** Where a rate came from. */
export const RateSources = ["DEMO", "ADMIN", "CLI", "ECB"] as const
export type RateSource = (typeof RateSources)[number]

/**
 * The viewer's currency when their account names none (accounts hold no currency yet): French
 * readers are taken to be in the euro area, English readers in Canada (the product's two markets:
 * France and Quebec speak French, the rest of Canada English). A search's `currency` parameter overrides it.
 */
export const currencyForLanguage = (language: string) => (language === "en" ? "CAD" : "EUR")
