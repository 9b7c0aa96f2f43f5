import type { ExchangeRatesData } from "./contract"
import { type ExchangeRate, rateText } from "./domain"
import { REFERENCE_CURRENCY } from "./rules"

export const toExchangeRatesData = (rates: ReadonlyArray<ExchangeRate>): typeof ExchangeRatesData.Type => ({
  reference: REFERENCE_CURRENCY,
  rates: rates.map((r) => ({
    currency: r.currency,
    rate: rateText(r.perEurMicro),
    perEurMicro: r.perEurMicro,
    source: r.source,
    updatedAt: r.updatedAt
  }))
})
