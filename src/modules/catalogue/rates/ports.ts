import { Context, type Effect } from "effect"
import type { Currency } from "../../../platform/money"
import type { ExchangeRate } from "./domain"
import type { RateSource } from "./rules"

/** The rates in force, one per currency (migrations/0032_exchange_rates.sql). */
export interface ExchangeRateRepositoryShape {
  readonly list: () => Effect.Effect<ReadonlyArray<ExchangeRate>>
  /** Sets these currencies' rates (the others keep theirs), with their source; within the caller's transaction. */
  readonly save: (rates: ReadonlyArray<readonly [Currency, number]>, source: RateSource) => Effect.Effect<void>
}
export class ExchangeRateRepository extends Context.Tag("catalogue/ExchangeRateRepository")<
  ExchangeRateRepository,
  ExchangeRateRepositoryShape
>() {}

/** A published source of reference rates (the European Central Bank's daily file), when configured. */
export interface RateFeedShape {
  /** The latest published rates per euro, in millionths, for the currencies it knows. */
  readonly latest: () => Effect.Effect<ReadonlyArray<readonly [Currency, number]>, RateFeedError>
}
export class RateFeed extends Context.Tag("catalogue/RateFeed")<RateFeed, RateFeedShape>() {}

export class RateFeedError {
  readonly _tag = "RateFeedError"
  constructor(readonly reason: string) {}
}
