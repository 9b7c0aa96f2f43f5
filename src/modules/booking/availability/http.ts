import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../../app/api"
import { CurrentUser } from "../../../platform/http/authentication"
import { ok } from "../../../platform/http/envelope"
import { Availability } from "./service"
import { toAvailabilityView } from "./views"

export const AvailabilityHttpLive = HttpApiBuilder.group(MarketplaceApi, "availability", (handlers) =>
  Effect.gen(function* () {
    const availability = yield* Availability
    return handlers
      .handle("ofProvider", ({ path }) => Effect.map(availability.of(path.id), (plan) => ok(toAvailabilityView(plan))))
      .handle("slots", ({ path, urlParams }) => Effect.map(availability.slots(path.id, urlParams), ok))
  })
)

export const MyAvailabilityHttpLive = HttpApiBuilder.group(MarketplaceApi, "myAvailability", (handlers) =>
  Effect.gen(function* () {
    const availability = yield* Availability
    return handlers.handle("replace", ({ payload }) =>
      Effect.map(
        Effect.flatMap(CurrentUser, (user) => availability.put(user, payload)),
        (plan) => ok(toAvailabilityView(plan))
      )
    )
  })
)
