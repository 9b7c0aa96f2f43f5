import { Effect, Layer } from "effect"
import { type Currency, isCurrency } from "../../../../platform/money"
import { parseRate } from "../domain"
import { RateFeed, RateFeedError } from "../ports"
import { REFERENCE_CURRENCY } from "../rules"

/** The European Central Bank's daily reference rates (about 16:00 CET on working days). */
export const ECB_DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
const TIMEOUT_MS = 10_000

/**
 * The rates of an eurofxref XML document: `<Cube currency='CAD' rate='1.4567'/>` per currency, in
 * units per euro (the file's own convention). Only the product's currencies are kept; XOF and XAF,
 * pegged to the euro, are not in the file and keep their stored rate.
 */
export const parseEurofxref = (xml: string): ReadonlyArray<readonly [Currency, number]> => {
  const rates: Array<readonly [Currency, number]> = []
  for (const m of xml.matchAll(/<Cube\s+currency\s*=\s*["']([A-Z]{3})["']\s+rate\s*=\s*["']([0-9.]+)["']\s*\/>/g)) {
    const currency = m[1]!
    const micro = parseRate(m[2]!)
    if (isCurrency(currency) && currency !== REFERENCE_CURRENCY && micro !== undefined) rates.push([currency, micro])
  }
  return rates
}

/** Fetches the ECB's daily file from `url` (ECB_RATES_URL); a network failure or an empty file is a RateFeedError. */
export const EcbRateFeed = (url: string) =>
  Layer.succeed(RateFeed, {
    latest: () =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) })
          if (!response.ok) throw new Error(`HTTP ${response.status}`)
          return await response.text()
        },
        catch: (e) => new RateFeedError(`ECB rates from ${url}: ${e instanceof Error ? e.message : String(e)}`)
      }).pipe(
        Effect.flatMap((xml) => {
          const rates = parseEurofxref(xml)
          return rates.length === 0
            ? Effect.fail(new RateFeedError(`ECB rates from ${url}: no rate in the document`))
            : Effect.succeed(rates)
        })
      )
  })
