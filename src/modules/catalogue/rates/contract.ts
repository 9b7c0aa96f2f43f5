import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../../../platform/http/authentication"
import { Ok, Payload, PayloadNumber, PayloadText } from "../../../platform/http/schemas"
import { RateSources } from "./rules"

// Exchange rates (issue 14 item 4): read by anyone (the UI converts prices with them), set by an admin.

export const ExchangeRateView = Schema.Struct({
  currency: Schema.String,
  /** Units of the currency one euro buys, as exact decimal text ("1.4567"). */
  rate: Schema.String,
  /** The same in millionths (1456700): what conversions compute with. */
  perEurMicro: Schema.Number,
  source: Schema.Literal(...RateSources),
  updatedAt: Schema.Date
})
export const ExchangeRatesData = Schema.Struct({
  /** The reference currency every rate is given against ("EUR"). */
  reference: Schema.String,
  rates: Schema.Array(ExchangeRateView)
})

// Loose on purpose, like every payload: a missing list is the 422 "give at least one rate", not a 400.
export const ExchangeRatesPayload = Payload({
  rates: Schema.optional(
    Schema.Array(Payload({ currency: PayloadText, rate: Schema.Union(PayloadText, PayloadNumber) })).pipe(Schema.maxItems(20))
  )
})

export class ExchangeRatesApi extends HttpApiGroup.make("rates")
  .add(HttpApiEndpoint.get("list", "/").addSuccess(Ok(ExchangeRatesData)))
  .add(HttpApiEndpoint.put("set", "/").setPayload(ExchangeRatesPayload).addSuccess(Ok(ExchangeRatesData)).middleware(Authentication))
  .prefix("/rates") {}
