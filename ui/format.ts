// Money, dates and numbers as every screen shows them, in the reader's locale. One module, built on
// the platform's money toolkit (src/platform/money.ts, import-free) so screens, server views and mails
// agree on each currency's decimals.

import { currencyDecimals, formatApproxMoney, formatMoney, toMinor } from "../src/platform/money"
import { formatInZone, formatRangeInZone } from "../src/platform/zoned-time"

export { currencyDecimals, toMinor }
// The time-zone toolkit the server's views and mails use too (import-free: src/platform/zoned-time.ts).
export { dayOf, instantOf, platformTimeZone, sameTimeIn, wallTimeOf, zoneCity, zoneName } from "../src/platform/zoned-time"

// ---- Money -------------------------------------------------------------------------------------

/** An amount in minor units, as the back-office's figures come ("80,00 CHF", "CA$35.00"). */
export const formatMinor = (locale: string, minor: number, currency: string) => formatMoney(locale, minor, currency)

/** An amount in major units, as the API's prices come (`price`, `totalPrice`: 35.5 for 35,50 €). Never a bare "$": "CA$35.50", "35,50 $CA". */
export const formatPrice = (locale: string, major: number, currency: string) => formatMoney(locale, toMinor(major, currency), currency)

/** A converted price (the API's `approxPrice`), in whole units: "≈ 52 $CA" once prefixed. */
export const formatApproxPrice = (locale: string, major: number, currency: string) =>
  formatApproxMoney(locale, toMinor(major, currency), currency)

// ---- Dates and times ---------------------------------------------------------------------------

type When = string | number | Date

// Intl formatters are costly to build and immutable: one per locale and options.
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale}:${JSON.stringify(options)}`
  let format = dateFormats.get(key)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options)
    dateFormats.set(key, format)
  }
  return format
}

/** "2 juin 2025" (medium) or "2 juin 2025" / "June 2, 2025" (long); "—" when there is no date. */
export const formatDate = (locale: string, value: When | null, style: "medium" | "long" = "medium") =>
  value === null || value === "" ? "—" : dateFormat(locale, { dateStyle: style }).format(new Date(value))

/** A date and its time ("2 juin 2025, 09:00"). */
export const formatDateTime = (locale: string, value: When, style: "medium" | "long" = "medium") =>
  dateFormat(locale, { dateStyle: style, timeStyle: "short" }).format(new Date(value))

/** A time of day ("09:00", "9:00 AM"); two-digit hours when asked ("09:00 AM"). */
export const formatTime = (locale: string, value: When, hours: "short" | "2-digit" = "short") =>
  dateFormat(locale, hours === "short" ? { timeStyle: "short" } : { hour: "2-digit", minute: "2-digit" }).format(new Date(value))

/** "lundi 2 juin 2025, 09:00 – 11:00" in the UI language; 24-hour times when asked. */
export const formatDateRange = (locale: string, start: Date, end: Date, h23 = false) => {
  const format = dateFormat(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(h23 ? { hourCycle: "h23" as const } : {})
  })
  try {
    return format.formatRange(start, end)
  } catch {
    return `${format.format(start)} – ${format.format(end)}`
  }
}

// ---- Dates and times in a zone ------------------------------------------------------------------
// The viewer's zone (ui/state/session.ts, useViewerZone: the account's, else the browser's) or a
// provider's: the same instant written where the reader lives, whatever the browser's own zone.

/** A date and its time in a zone ("2 juin 2025, 09:00"). */
export const formatDateTimeIn = (locale: string, value: When, zone: string, style: "medium" | "long" = "medium") =>
  formatInZone(locale, value, zone, { dateStyle: style, timeStyle: "short" })

/** A time of day in a zone ("09:00", "9:00 AM"). */
export const formatTimeIn = (locale: string, value: When, zone: string) => formatInZone(locale, value, zone, { timeStyle: "short" })

/** "lundi 2 juin 2025, 09:00 – 11:00" in a zone, in the UI language. */
export const formatDateRangeIn = (locale: string, start: When, end: When, zone: string) =>
  formatRangeInZone(locale, start, end, zone, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit"
  })

/** A whole day in a zone ("lundi 30 novembre 2026", "Monday, November 30, 2026"). */
export const formatDayIn = (locale: string, value: When, zone: string) => formatInZone(locale, value, zone, { dateStyle: "full" })

/**
 * A UTC calendar day or month of the back-office's series ("2026-11-26"), written as such whatever the
 * browser's zone: "day" "26 nov." / "Nov 26", "date" "26 nov. 2026", "month" "nov. 2026" / "Nov 2026".
 */
export const formatUtcDay = (locale: string, day: string, style: "day" | "date" | "month") =>
  dateFormat(
    locale,
    style === "day"
      ? { day: "numeric", month: "short", timeZone: "UTC" }
      : style === "date"
        ? { dateStyle: "medium", timeZone: "UTC" }
        : { month: "short", year: "numeric", timeZone: "UTC" }
  ).format(new Date(`${day}T00:00:00Z`))

// ---- Numbers -----------------------------------------------------------------------------------

/** A number with at most `maximumDigits` decimals (and at least `minimumDigits`): "4,5", "12.25". */
export const formatNumber = (locale: string, value: number, maximumDigits = 0, minimumDigits = 0) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: minimumDigits, maximumFractionDigits: maximumDigits }).format(value)

/** An amount in minor units, short for a chart's axis ("1,2 k$ CA", "CA$1.2K"). */
export const formatMinorCompact = (locale: string, minor: number, currency: string) =>
  new Intl.NumberFormat(locale, { style: "currency", currency, notation: "compact", maximumFractionDigits: 1 }).format(
    minor / 10 ** currencyDecimals(currency)
  )

/** A distance in kilometres: one decimal under 10 km ("2,5 km"), whole above ("12 km"). */
export const formatDistance = (locale: string, km: number) =>
  new Intl.NumberFormat(locale, { style: "unit", unit: "kilometer", maximumFractionDigits: km < 10 ? 1 : 0 }).format(km)

// ---- Ratings, shares and membership (the catalogue's public pages) -----------------------------

/** A rating out of 5 with one decimal, always ("4,5", "5,0"; "4.5" in English), so scores line up. */
export const formatRating = (locale: string, rating: number) => formatNumber(locale, Math.round(rating * 10) / 10, 1, 1)

/** A share from 0 to 1 as a percentage, whole by default ("95 %" in French, "95%" in English). */
export const formatPercent = (locale: string, share: number, maximumDigits = 0) =>
  new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: maximumDigits }).format(share)

/** A month and its year ("mars 2024", "March 2024"): since when someone is a member. */
export const formatMonthYear = (locale: string, value: When) =>
  dateFormat(locale, { month: "long", year: "numeric" }).format(new Date(value))

// ---- File names ----------------------------------------------------------------------------------

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })
/** A text's characters as people count them (an accented letter written in two code points is one). */
const charactersOf = (text: string) => Array.from(graphemes.segment(text), (part) => part.segment)

/**
 * A file name cut to `max` characters (the spec's 30 or 40) with its extension kept and an ellipsis
 * where it was cut ("justificatif-de-domicile-….pdf"); cut between characters, never inside one.
 */
export const shortFileName = (name: string, max: number) => {
  const characters = charactersOf(name)
  if (characters.length <= max) return name
  const dot = name.lastIndexOf(".")
  const extension = dot > 0 ? charactersOf(name.slice(dot)) : []
  // An extension too long to keep beside a stem is cut like the rest.
  const kept = extension.length > 0 && extension.length <= max / 3 ? extension : []
  return `${characters.slice(0, max - 1 - kept.length).join("")}…${kept.join("")}`
}
