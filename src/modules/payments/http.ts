import { HttpApiBuilder, HttpApiError, HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { MarketplaceApi } from "../../app/api"
import { BadRequest } from "../../platform/errors"
import { ok, Payload, PayloadText } from "../../platform/http/envelope"
import { CurrentUser } from "../../platform/http/authentication"
import { PaymentGatewayUnavailable } from "./domain"
import type { PaymentGatewayError } from "./ports"
import { ConnectedAccounts } from "./service"
import { type WebhookEndpoint } from "./webhook-endpoints"
import { PaymentWebhooks } from "./webhooks"

const Malformed = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.malformed" })

/** The gateway failed or is unreachable: 502 in the one error envelope. */
const gatewayFailure = (_: PaymentGatewayError) => Effect.fail(PaymentGatewayUnavailable)

const OnboardingPayload = Payload({ country: Schema.optional(PayloadText) })

// Raw handlers, so that a gateway failure can answer 502 and the webhook can read the raw body.
export const StripeConnectHttpLive = HttpApiBuilder.group(MarketplaceApi, "stripeConnect", (handlers) =>
  Effect.gen(function* () {
    const connected = yield* ConnectedAccounts
    return handlers
      .handleRaw("status", () => Effect.map(Effect.flatMap(CurrentUser, connected.status), (status) => ok({ data: status })))
      .handleRaw("onboarding", () =>
        Effect.gen(function* () {
          // A body the reader refused (413, 415...) or that does not match: the middleware's answers, as for every JSON route.
          const payload = yield* HttpServerRequest.schemaBodyJson(OnboardingPayload).pipe(
            Effect.catchTags({ ParseError: HttpApiError.HttpApiDecodeError.refailParseError, RequestError: Effect.die })
          )
          const { accountLink } = yield* connected.startOnboarding(yield* CurrentUser, payload.country)
          return ok({ data: { accountLink } })
        }).pipe(Effect.catchTag("PaymentGatewayError", gatewayFailure))
      )
      .handleRaw("dashboard", () =>
        Effect.flatMap(CurrentUser, connected.dashboard).pipe(
          Effect.map(({ dashboardUrl }) => ok({ data: { dashboardUrl } })),
          Effect.catchTag("PaymentGatewayError", gatewayFailure)
        )
      )
  })
)

export const PaymentsWebhookHttpLive = HttpApiBuilder.group(MarketplaceApi, "paymentsWebhook", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* PaymentWebhooks
    const receive =
      (endpoint: WebhookEndpoint) =>
      ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
        Effect.gen(function* () {
          // The signature covers the exact bytes sent: read them untouched.
          const body = new Uint8Array(yield* Effect.mapError(request.arrayBuffer, () => Malformed))
          const receipt = yield* webhooks.receive(endpoint, body, request.headers["stripe-signature"])
          return ok({ received: true as const, duplicate: receipt.duplicate })
        })
    return handlers.handleRaw("webhook", receive("platform")).handleRaw("connectWebhook", receive("connect"))
  })
)
