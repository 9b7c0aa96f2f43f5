import { Clock, Context, Effect, Layer, Option } from "effect"
import { AuditTrail, CLI_OPERATOR_ID } from "../../../platform/audit/port"
import { type Forbidden, invalid, type ValidationFailed } from "../../../platform/errors"
import { Transactional } from "../../../platform/transaction"
import { type Actor, requireRole } from "../../identity"
import { type ExchangeRate, type RateTable, rateTableOf, rateText, validateRates } from "./domain"
import { ExchangeRateRepository, RateFeed, type RateFeedError } from "./ports"
import type { RateSource } from "./rules"

/** How long this process reuses the rates it read (rates set here clear it at once). */
export const RATES_CACHE_MS = 60_000

export type RateEntry = { readonly currency: string; readonly rate: string | number }

export class ExchangeRates extends Context.Tag("catalogue/ExchangeRates")<
  ExchangeRates,
  {
    readonly list: Effect.Effect<ReadonlyArray<ExchangeRate>>
    /** The rates in force, per currency (searches and conversions; cached RATES_CACHE_MS). */
    readonly table: Effect.Effect<RateTable>
    /** An administrator sets some rates (422 per bad entry), audited in the same transaction. */
    readonly set: (
      actor: Actor,
      entries: ReadonlyArray<RateEntry>
    ) => Effect.Effect<ReadonlyArray<ExchangeRate>, Forbidden | ValidationFailed>
    /** The same decision at the command line (`bin/run rates:set`), audited under the CLI operator. */
    readonly setByOperator: (entries: ReadonlyArray<RateEntry>) => Effect.Effect<ReadonlyArray<ExchangeRate>, ValidationFailed>
    /** Stores the configured feed's latest rates (the daily job); none when no feed is configured. */
    readonly refresh: Effect.Effect<Option.Option<ReadonlyArray<ExchangeRate>>, RateFeedError>
  }
>() {}

export const ExchangeRatesLive = Layer.effect(
  ExchangeRates,
  Effect.gen(function* () {
    const repository = yield* ExchangeRateRepository
    const tx = yield* Transactional
    const audit = yield* AuditTrail
    const feed = yield* Effect.serviceOption(RateFeed)
    let cached: { readonly until: number; readonly table: RateTable } | undefined

    const table = Effect.gen(function* () {
      const at = yield* Clock.currentTimeMillis
      if (cached !== undefined && cached.until > at) return cached.table
      const fresh = rateTableOf(yield* repository.list())
      cached = { until: at + RATES_CACHE_MS, table: fresh }
      return fresh
    })

    const decide = (actorId: string, entries: ReadonlyArray<RateEntry>, source: RateSource) =>
      Effect.gen(function* () {
        const { rates, issues } = validateRates(entries)
        if (issues.length > 0) return yield* invalid(issues)
        const before = new Map((yield* repository.list()).map((r) => [r.currency, r.perEurMicro]))
        // Rate and audit entry commit together; rates that did not change are still confirmed (and dated).
        yield* tx.run(
          Effect.zipRight(
            repository.save(rates, source),
            audit.record({
              actorId,
              action: "EXCHANGE_RATES_SET",
              subject: { type: "EXCHANGE_RATES", id: rates.map(([c]) => c).join(",") },
              before: Object.fromEntries(rates.map(([c]) => [c, before.has(c) ? rateText(before.get(c)!) : null])),
              after: { ...Object.fromEntries(rates.map(([c, micro]) => [c, rateText(micro)])), source }
            })
          )
        )
        cached = undefined
        return yield* repository.list()
      })

    return {
      list: repository.list(),
      table,
      set: (actor, entries) => Effect.flatMap(requireRole(actor, "ADMIN"), (admin) => decide(admin.id, entries, "ADMIN")),
      setByOperator: (entries) => decide(CLI_OPERATOR_ID, entries, "CLI"),
      refresh: Option.isNone(feed)
        ? Effect.succeed(Option.none())
        : Effect.gen(function* () {
            const latest = yield* feed.value.latest()
            yield* repository.save(latest, "ECB")
            cached = undefined
            return Option.some(yield* repository.list())
          })
    }
  })
)
