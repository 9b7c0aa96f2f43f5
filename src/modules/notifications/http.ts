import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { localized, ok } from "../../platform/http/envelope"
import { RateLimiter } from "../../platform/rate-limit"
import { HttpServerRequest } from "@effect/platform"
import { Option } from "effect"
import { MarketplaceApi } from "../../app/api"
import { Notifications } from "./service"

export const ContactHttpLive = HttpApiBuilder.group(MarketplaceApi, "contact", (handlers) =>
  Effect.gen(function*() {
    const notifications = yield* Notifications
    const limiter = yield* RateLimiter
    return handlers.handle("sendMessage", ({ payload }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* limiter.consume(`contact:${Option.getOrElse(request.remoteAddress, () => "unknown")}`)
        yield* notifications.submitContactMessage(payload, null)
        return ok({}, yield* localized("contact.sent"))
      })
    )
  })
)
