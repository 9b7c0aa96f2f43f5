import { currencyDecimals, Currencies, type Currency, isCurrency } from "../../../platform/money"
import { type FieldIssue, issue } from "../../../platform/errors"
import { RATE_DECIMALS, RATE_MAX, RATE_MIN, RATE_SCALE, REFERENCE_CURRENCY, type RateSource } from "./rules"

// Exchange rates and the one conversion rule, pure. A rate is how many units of a currency one euro
// buys, in millionths (`perEurMicro`: 1.4567 CAD per EUR is 1456700). Amounts are integers (minor
// units, or hundredths of the major unit for price ranges), converted with exact integer
// arithmetic (BigInt) and rounded ONCE, half up: no float ever touches an amount.

export interface ExchangeRate {
  readonly currency: Currency
  readonly perEurMicro: number
  readonly source: RateSource
  readonly updatedAt: Date
}

/** The rates in force: every product currency's micro-rate per euro (EUR itself is 1000000). */
export type RateTable = ReadonlyMap<string, number>

export const rateTableOf = (rates: ReadonlyArray<Pick<ExchangeRate, "currency" | "perEurMicro">>): RateTable =>
  new Map([[REFERENCE_CURRENCY, RATE_SCALE], ...rates.map((r) => [r.currency, r.perEurMicro] as const)])

/**
 * Demo rates (rounded ECB reference rates of November 2025; XOF and XAF are pegged to the euro at
 * 655.957): what a fresh database starts with, offline. An admin or the ECB job replaces them.
 */
export const DEMO_RATES: ReadonlyArray<readonly [Currency, number]> = [
  ["EUR", 1_000_000],
  ["CAD", 1_620_000],
  ["USD", 1_155_000],
  ["GBP", 880_000],
  ["CHF", 930_000],
  ["JPY", 180_000_000],
  ["XOF", 655_957_000],
  ["XAF", 655_957_000]
]

/** `round(numerator / denominator)`, half up, for non-negative integers. */
const divRound = (numerator: bigint, denominator: bigint) => (2n * numerator + denominator) / (2n * denominator)
/** The smallest integer ≥ n / d (d > 0). */
const ceilDiv = (n: bigint, d: bigint) => (n >= 0n ? (n + d - 1n) / d : -(-n / d))

/**
 * An amount in `from`'s minor units as `to`'s minor units: amount × 10^(dTo − dFrom) × rate(to) / rate(from),
 * rounded once, half up (4550 EUR cents at 1.62 CAD per EUR: 7371 CAD cents). Undefined when a rate is missing,
 * or when the result is beyond what a number holds exactly (2^53).
 */
export const convertMinor = (amountMinor: number, from: string, to: string, rates: RateTable): number | undefined => {
  const rFrom = rates.get(from)
  const rTo = rates.get(to)
  if (rFrom === undefined || rTo === undefined) return undefined
  if (from === to) return amountMinor
  const shift = currencyDecimals(to) - currencyDecimals(from)
  const numerator = BigInt(amountMinor) * BigInt(rTo) * 10n ** BigInt(Math.max(shift, 0))
  const denominator = BigInt(rFrom) * 10n ** BigInt(Math.max(-shift, 0))
  const converted = divRound(numerator, denominator)
  // Beyond 2^53 a number is no longer exact: no answer rather than a wrong one.
  return converted > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(converted)
}

/**
 * A price in hundredths of its major unit (the stored `price_cents`) as hundredths of a euro: the key
 * price sorts compare, `round(cents × 10^6 / perEurMicro)`, half up. The SQL search computes the same
 * expression, `(price_cents * 2000000 + r) / (2 * r)`.
 */
export const referenceCents = (priceCents: number, perEurMicro: number) =>
  Number(divRound(BigInt(priceCents) * BigInt(RATE_SCALE), BigInt(perEurMicro)))

/** The converted value of `cents` (hundredths of `from`'s major unit) in hundredths of `to`'s, rounded half up. */
export const convertCents = (cents: number, rFrom: number, rTo: number) => Number(divRound(BigInt(cents) * BigInt(rTo), BigInt(rFrom)))

/** One currency's prices (hundredths of the major unit, inclusive) that fall in a viewer's range once converted. */
export interface CurrencyRange {
  readonly currency: string
  readonly minCents: number
  readonly maxCents: number | undefined
}

/**
 * A price range given in the viewer's currency, as one inclusive range per currency of the table:
 * a price p (hundredths) of currency C matches when min ≤ convertCents(p, C → viewer) ≤ max. Since
 * the conversion is non-decreasing in p, that set is an interval, found exactly:
 * round(x) ≥ m ⟺ p ≥ (2m − 1)·rC / (2·rV); round(x) ≤ M ⟺ p < (2M + 1)·rC / (2·rV).
 * Currencies the table does not price are left out (nothing can be said of them).
 */
export const rangesInEachCurrency = (
  minCents: number | undefined,
  maxCents: number | undefined,
  viewer: string,
  rates: RateTable
): ReadonlyArray<CurrencyRange> => {
  const rV = rates.get(viewer)
  if (rV === undefined) return []
  return [...rates].flatMap(([currency, rC]) => {
    const lo = minCents === undefined || minCents <= 0 ? 0n : ceilDiv((2n * BigInt(minCents) - 1n) * BigInt(rC), 2n * BigInt(rV))
    const hi = maxCents === undefined ? undefined : ceilDiv((2n * BigInt(maxCents) + 1n) * BigInt(rC), 2n * BigInt(rV)) - 1n
    if (hi !== undefined && hi < lo) return []
    return [{ currency, minCents: Number(lo < 0n ? 0n : lo), maxCents: hi === undefined ? undefined : Number(hi) }]
  })
}

/**
 * A rate as typed ("1.4567", "1,4567", "655.957"): exact decimal text to millionths, no float. At most
 * 6 decimals, between RATE_MIN and RATE_MAX. Undefined when it is not such a number.
 */
export const parseRate = (text: string): number | undefined => {
  const m = /^\s*(\d{1,7})(?:[.,](\d{1,6}))?\s*$/.exec(text)
  if (m === null) return undefined
  const micro = Number(m[1]) * RATE_SCALE + Number((m[2] ?? "").padEnd(RATE_DECIMALS, "0"))
  return micro >= RATE_MIN * RATE_SCALE && micro <= RATE_MAX * RATE_SCALE ? micro : undefined
}

/** Millionths as the decimal text shown and exported ("1.4567"). */
export const rateText = (perEurMicro: number) => {
  const whole = Math.floor(perEurMicro / RATE_SCALE)
  const fraction = String(perEurMicro % RATE_SCALE)
    .padStart(RATE_DECIMALS, "0")
    .replace(/0+$/, "")
  return fraction === "" ? String(whole) : `${whole}.${fraction}`
}

/** New rates as entered (currency → text or number): each checked; EUR, the reference, is always 1. */
export const validateRates = (
  input: ReadonlyArray<{ readonly currency: string; readonly rate: string | number }>
): { readonly rates: ReadonlyArray<readonly [Currency, number]>; readonly issues: ReadonlyArray<FieldIssue> } => {
  const issues: Array<FieldIssue> = []
  const rates: Array<readonly [Currency, number]> = []
  if (input.length === 0) issues.push(issue("rates", "rates.empty"))
  const seen = new Set<string>()
  for (const entry of input) {
    const code = entry.currency.trim().toUpperCase()
    const field = `rates.${code || "?"}`
    if (!isCurrency(code)) {
      issues.push(issue(field, "rates.currency"))
      continue
    }
    if (seen.has(code)) {
      issues.push(issue(field, "rates.duplicate"))
      continue
    }
    seen.add(code)
    const micro = parseRate(typeof entry.rate === "number" ? String(entry.rate) : entry.rate)
    if (micro === undefined) issues.push(issue(field, "rates.invalid"))
    else if (code === REFERENCE_CURRENCY && micro !== RATE_SCALE) issues.push(issue(field, "rates.reference"))
    else rates.push([code, micro])
  }
  return { rates, issues }
}

export { Currencies }
