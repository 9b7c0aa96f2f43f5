import { type ExchangeRate, type RateEntry, rateText } from "../../../src/modules/catalogue"

/** `CAD=1.4567` arguments as rate entries (a malformed one keeps its text: the service answers which one is wrong). */
export const rateArguments = (argv: ReadonlyArray<string>): ReadonlyArray<RateEntry> =>
  argv.map((arg) => {
    const at = arg.indexOf("=")
    return at < 0 ? { currency: arg, rate: "" } : { currency: arg.slice(0, at), rate: arg.slice(at + 1) }
  })

/** The rates as a table: currency, units per euro, source, when (UTC). */
export const renderRates = (rates: ReadonlyArray<ExchangeRate>) =>
  [
    "Currency  Per 1 EUR      Source  Updated (UTC)",
    ...rates.map(
      (r) =>
        `${r.currency.padEnd(10)}${rateText(r.perEurMicro).padEnd(15)}${r.source.padEnd(8)}${r.updatedAt.toISOString().slice(0, 16).replace("T", " ")}`
    )
  ].join("\n")

export const ratesJson = (rates: ReadonlyArray<ExchangeRate>) => ({
  reference: "EUR",
  rates: rates.map((r) => ({ currency: r.currency, rate: rateText(r.perEurMicro), source: r.source, updatedAt: r.updatedAt.toISOString() }))
})
