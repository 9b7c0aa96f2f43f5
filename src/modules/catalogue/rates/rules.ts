// Exchange rates' literal rules and the viewer's currency, in a file that imports only the import-free
// money rules: the domain, the contract and the UI share it.

import { type Currency, isCurrency } from "../../../platform/money"

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
 * A language's currency, when nothing better is known (a call without `currency`, a browser naming no
 * region): French readers are taken to be in the euro area, English readers in Canada (the product's
 * two markets: France and Quebec speak French, the rest of Canada English).
 */
export const currencyForLanguage = (language: string): Currency => (language === "en" ? "CAD" : "EUR")

/**
 * Where a browser's region pays in a currency the product accepts (ISO 3166 → ISO 4217): Canada,
 * the United States, the United Kingdom, Switzerland and Liechtenstein, Japan, the euro area (and the
 * European states that use the euro), and the two CFA franc zones. Other regions read their
 * language's currency.
 */
const REGION_CURRENCIES: Readonly<Record<string, Currency>> = {
  CA: "CAD",
  US: "USD",
  GB: "GBP",
  CH: "CHF",
  LI: "CHF",
  JP: "JPY",
  ...Object.fromEntries(
    "FR BE LU MC DE AT NL IE ES PT IT SM VA AD FI EE LV LT SK SI GR CY MT HR ME XK GP MQ GF RE YT PM BL MF"
      .split(" ")
      .map((r) => [r, "EUR"])
  ),
  ...Object.fromEntries("SN CI BJ BF ML NE TG GW".split(" ").map((r) => [r, "XOF"])),
  ...Object.fromEntries("CM GA CG TD CF GQ".split(" ").map((r) => [r, "XAF"]))
}

/** A language tag's region ("fr-CA" → "CA", "zh-Hant-TW" → "TW", "fr" → undefined). */
export const regionOf = (tag: string): string | undefined =>
  tag
    .split(/[-_]/)
    .slice(1)
    .find((part) => /^[A-Za-z]{2}$/.test(part))
    ?.toUpperCase()

/**
 * The currency a viewer reads prices in: the one they chose, when the product accepts it; else
 * their browser's region's (the first of its languages that names a region: fr-CA and en-CA read
 * CAD, fr-FR EUR); else their language's.
 */
export const currencyForViewer = (viewer: {
  readonly choice?: string | null | undefined
  readonly browserLanguages: ReadonlyArray<string>
  readonly language: string
}): Currency => {
  if (viewer.choice && isCurrency(viewer.choice)) return viewer.choice
  const region = viewer.browserLanguages.map(regionOf).find((found) => found !== undefined)
  return (region && REGION_CURRENCIES[region]) || currencyForLanguage(viewer.language)
}
