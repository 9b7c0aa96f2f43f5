// Money, in a file that imports nothing: the server, the mails, the CLI and the UI share it.
// Amounts are stored and computed in integer minor units; major units (49.5 EUR) exist only at the
// edges (the API's prices, forms, texts). A currency's decimals say how to convert between them.

/** The currencies the product accepts, with their minor-unit decimals (ISO 4217) and a short symbol. */
const CURRENCIES = {
  EUR: { decimals: 2, symbol: "€" },
  // Never a bare "$" (issue 14): a dollar names its country.
  CAD: { decimals: 2, symbol: "CA$" },
  USD: { decimals: 2, symbol: "US$" },
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

/**
 * The major amount written with exactly the currency's decimals, without locale ("45.50", "-0.05",
 * "5000"), for CSV files, logs and the CLI. Digits are moved, not divided: exact for any integer.
 */
export const majorText = (minor: number, currency: string) => {
  const decimals = currencyDecimals(currency)
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, "0")
  const sign = minor < 0 ? "-" : ""
  if (decimals === 0) return `${sign}${digits}`
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

/**
 * A bare "$" names no currency (English writes USD "$70.00", Canadian French CAD "70,00 $"): it is
 * replaced by the currency's country-marked dollar, "US$" / "CA$" in English, "$US" / "$CA" in French.
 */
const unambiguousSymbol = (locale: string, currency: string, symbol: string) =>
  symbol !== "$" ? undefined : locale.toLowerCase().startsWith("fr") ? `$${currency.slice(0, 2)}` : `${currency.slice(0, 2)}$`

interface MoneyFormat {
  readonly format: Intl.NumberFormat
  /** The symbol to write instead of a bare "$" (see unambiguousSymbol). */
  readonly dollar: string | undefined
}

// Intl formatters are costly to build (20 to 45 µs each) and immutable: one per locale, currency and precision.
const formats = new Map<string, MoneyFormat | null>()
const formatOf = (locale: string, currency: string, whole: boolean) => {
  const key = `${locale}:${currency}:${whole}`
  if (!formats.has(key)) {
    try {
      const format = new Intl.NumberFormat(locale, {
        style: "currency",
        currency,
        ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {})
      })
      const symbol = format.formatToParts(1).find((p) => p.type === "currency")?.value ?? ""
      formats.set(key, { format, dollar: unambiguousSymbol(locale, currency, symbol) })
    } catch {
      // A code Intl refuses (not ISO 4217): shown as "12.5 ABC" rather than failing the page.
      formats.set(key, null)
    }
  }
  return formats.get(key)!
}

const written = (locale: string, minor: number, currency: string, whole: boolean) => {
  const format = formatOf(locale, currency, whole)
  const major = toMajor(minor, currency)
  if (format === null) return `${whole ? Math.round(major) : major} ${currency}`
  const text = format.format.format(major)
  return format.dollar === undefined ? text : text.replace("$", format.dollar)
}

/** The currency's symbol as the reader's locale writes it, a dollar marked with its country ("€", "$CA", "CA$", "CHF"). */
export const currencySymbolIn = (locale: string, currency: string) => {
  const format = formatOf(locale, currency, true)
  if (format === null) return currency
  return format.dollar ?? format.format.formatToParts(1).find((part) => part.type === "currency")?.value ?? currency
}

/** An amount in minor units, in its currency and the reader's locale ("45,50 €", "CA$35.00", "US$5.00", "¥5,000"; never a bare "$"). */
export const formatMoney = (locale: string, minor: number, currency: string) => written(locale, minor, currency, false)

/** An approximate amount, rounded to whole units ("52 $CA", "CA$52"): a price converted at today's rate. */
export const formatApproxMoney = (locale: string, minor: number, currency: string) => written(locale, minor, currency, true)
