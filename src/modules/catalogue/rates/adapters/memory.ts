import { Effect, Layer } from "effect"
import { now } from "../../../../platform/clock"
import { type Currency } from "../../../../platform/money"
import { DEMO_RATES, type ExchangeRate } from "../domain"
import { ExchangeRateRepository } from "../ports"

/** The rates in memory, starting from the demo rates (as migration 0032 seeds them). */
export const ExchangeRateRepositoryMemory = Layer.sync(ExchangeRateRepository, () => {
  const rates = new Map<Currency, ExchangeRate>(
    DEMO_RATES.map(([currency, perEurMicro]) => [currency, { currency, perEurMicro, source: "DEMO", updatedAt: new Date(0) }])
  )
  return {
    list: () => Effect.sync(() => [...rates.values()].sort((a, b) => a.currency.localeCompare(b.currency))),
    save: (entries, source) =>
      Effect.map(now, (updatedAt) => {
        for (const [currency, perEurMicro] of entries) rates.set(currency, { currency, perEurMicro, source, updatedAt })
      })
  }
})
