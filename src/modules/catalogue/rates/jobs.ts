import { Effect, Layer } from "effect"
import { JobQueue } from "../../../platform/jobs"
import { RateFeed } from "./ports"
import { ExchangeRates } from "./service"

export const RATES_QUEUE = "exchange-rates"
/** The ECB publishes around 16:00 CET on working days: fetched daily at 16:30 UTC, after it in every season. */
export const RATES_CRON = "30 16 * * *"

/**
 * With a rate feed configured (ECB_RATES_URL), the daily fetch of the reference rates, and one at
 * start; a failure is retried 3 times, 10 minutes apart (the stored rates stay in force meanwhile).
 * Without one (the default, offline), nothing runs: the demo or admin rates stay.
 */
export const ExchangeRateJobsLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    if ((yield* Effect.serviceOption(RateFeed))._tag === "None") return
    const jobs = yield* JobQueue
    const rates = yield* ExchangeRates
    yield* jobs.work(RATES_QUEUE, () =>
      rates.refresh.pipe(
        Effect.tap((saved) => Effect.logInfo(`exchange rates refreshed: ${saved._tag === "Some" ? saved.value.length : 0} currencies`))
      )
    )
    yield* jobs.schedule(RATES_QUEUE, RATES_CRON)
    yield* jobs.send(RATES_QUEUE, {}, { singletonKey: "start", retryLimit: 3, retryDelaySeconds: 600 })
  })
)
