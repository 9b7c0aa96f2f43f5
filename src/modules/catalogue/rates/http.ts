import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../../app/api"
import { CurrentUser } from "../../../platform/http/authentication"
import { ok } from "../../../platform/http/envelope"
import { ExchangeRates } from "./service"
import { toExchangeRatesData } from "./views"

export const ExchangeRatesHttpLive = HttpApiBuilder.group(MarketplaceApi, "rates", (handlers) =>
  Effect.gen(function* () {
    const rates = yield* ExchangeRates
    return handlers
      .handle("list", () => Effect.map(rates.list, (all) => ok(toExchangeRatesData(all))))
      .handle("set", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const saved = yield* rates.set(user, payload.rates ?? [])
          return ok(toExchangeRatesData(saved))
        })
      )
  })
)
