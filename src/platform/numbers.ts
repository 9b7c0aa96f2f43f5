/**
 * Numbers from requests, bounded to what the database stores. PostgreSQL refuses what JavaScript
 * happily carries: a subnormal double such as 5e-324 fails with "value out of range: underflow", an
 * integer past 2^31 - 1 does not fit an `int` column, and a price of 1e-7 rounds to 0 minor units
 * and breaks a CHECK. Every numeric input goes through these rules (the payload schema
 * `PayloadNumber` and the modules' parsers), so such a value is a 4xx, never a 500.
 */

/** The smallest magnitude kept (besides 0): no stored quantity has more than 9 decimals. */
export const SMALLEST_MAGNITUDE = 1e-9
/** The largest magnitude kept: integers beyond it are not exact in JavaScript. */
export const LARGEST_MAGNITUDE = Number.MAX_SAFE_INTEGER
/** PostgreSQL's `int` (ids, counts, minutes, minor units of a price). */
export const INT4_MAX = 2_147_483_647

/** A finite number that is 0 or within [1e-9, 2^53 - 1] in magnitude. */
export const isStorableNumber = (n: number) =>
  Number.isFinite(n) && (n === 0 || (Math.abs(n) >= SMALLEST_MAGNITUDE && Math.abs(n) <= LARGEST_MAGNITUDE))

/** An integer an `int` column holds. */
export const isInt4 = (n: number) => Number.isInteger(n) && n >= -INT4_MAX - 1 && n <= INT4_MAX

/**
 * How many decimals a number is written with, floating noise ignored: read at 15 significant digits
 * (0.1 + 0.2 counts as 1, 19.99 as 2, 16654908.7 as 1, 1e-7 as 7). Not finite: Infinity.
 */
export const decimalPlaces = (n: number) => {
  if (!Number.isFinite(n)) return Number.POSITIVE_INFINITY
  const [mantissa = "", exponent = "0"] = String(Math.abs(Number(n.toPrecision(15)))).split("e")
  const fraction = mantissa.split(".")[1]?.length ?? 0
  return Math.max(0, fraction - Number(exponent))
}
