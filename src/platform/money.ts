// Money, in a file that imports nothing: the server, the mails, the CLI and the UI share it.
// Amounts are stored and computed in integer minor units; major units (49.5 EUR) exist only at the
// edges (the API's prices, forms, texts). A currency's decimals say how to convert between them.

/** The currencies the product accepts, with their minor-unit decimals (ISO 4217) and a short symbol. */
const CURRENCIES = {
  EUR: { decimals: 2, symbol: "€" },
  CAD: { decimals: 2, symbol: "$" },
  USD: { decimals: 2, symbol: "$" },
  GBP: { decimals: 2, symbol: "£" },
  CHF: { decimals: 2, symbol: "CHF" },
  JPY: { decimals: 0, symbol: "¥" },
  XOF: { decimals: 0, symbol: "CFA" },
  XAF: { decimals: 0, symbol: "FCFA" }
} as const

export type Currency = keyof typeof CURRENCIES
export const Currencies = Object.keys(CURRENCIES) as ReadonlyArray<Currency> as readonly [Currency, ...Array<Currency>]

export const isCurrency = (code: string): code is Currency => Object.prototype.hasOwnProperty.call(CURRENCIES, code)

/** Digits after the decimal point: 2 for EUR, 0 for JPY, XOF and XAF; 2 for a code we do not know. */
export const currencyDecimals = (currency: string) => (isCurrency(currency) ? CURRENCIES[currency].decimals : 2)

/** The currency's short symbol ("€", "¥"), or its code when unknown. */
export const currencySymbol = (currency: string) => (isCurrency(currency) ? CURRENCIES[currency].symbol : currency)

/** Stored minor units to the major units shown (4550 EUR cents: 45.5). */
export const toMajor = (minor: number, currency: string) => minor / 10 ** currencyDecimals(currency)

/** Major units to integer minor units, rounded to the nearest unit (19.99 EUR: 1999, despite 19.99 × 100 = 1998.99…). */
export const toMinor = (major: number, currency: string) => Math.round(major * 10 ** currencyDecimals(currency))

/** The major amount written with exactly the currency's decimals, without locale ("45.50", "5000"), for logs and the CLI. */
export const majorText = (minor: number, currency: string) => toMajor(minor, currency).toFixed(currencyDecimals(currency))

// Intl formatters are costly to build (20 to 45 µs each) and immutable: one per locale and currency.
const formats = new Map<string, Intl.NumberFormat | null>()
const formatOf = (locale: string, currency: string) => {
  const key = `${locale}:${currency}`
  if (!formats.has(key)) {
    try {
      formats.set(key, new Intl.NumberFormat(locale, { style: "currency", currency }))
    } catch {
      // A code Intl refuses (not ISO 4217): shown as "12.5 ABC" rather than failing the page.
      formats.set(key, null)
    }
  }
  return formats.get(key)!
}

/** An amount in minor units, in its currency and the reader's locale ("45,50 €", "CA$35.00", "¥5,000"). */
export const formatMoney = (locale: string, minor: number, currency: string) => {
  const format = formatOf(locale, currency)
  const major = toMajor(minor, currency)
  return format === null ? `${major} ${currency}` : format.format(major)
}
