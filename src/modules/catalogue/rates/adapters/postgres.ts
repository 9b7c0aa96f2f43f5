import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { Currencies } from "../../../../platform/money"
import { findAll } from "../../../../platform/rows"
import { ExchangeRateRepository } from "../ports"
import { RateSources } from "../rules"

const RateRow = Schema.Struct({
  currency: Schema.Literal(...Currencies),
  perEurMicro: Schema.Number,
  source: Schema.Literal(...RateSources),
  updatedAt: Schema.DateFromSelf
})

export const ExchangeRateRepositoryLive = Layer.effect(
  ExchangeRateRepository,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    list: () =>
      findAll(
        "exchange rates",
        RateRow,
        // A currency the product no longer accepts is not read (its row would not decode).
        sql`SELECT trim(currency) AS currency, per_eur_micro, source, updated_at FROM exchange_rates
        WHERE trim(currency) = ANY(${Currencies as ReadonlyArray<string>}::text[]) ORDER BY currency`
      ).pipe(Effect.orDie),
    save: (rates, source) =>
      Effect.forEach(
        rates,
        ([currency, micro]) =>
          sql`INSERT INTO exchange_rates (currency, per_eur_micro, source, updated_at) VALUES (${currency}, ${micro}, ${source}, now())
          ON CONFLICT (currency) DO UPDATE SET per_eur_micro = excluded.per_eur_micro, source = excluded.source, updated_at = excluded.updated_at`,
        { discard: true }
      ).pipe(Effect.orDie)
  }))
)
