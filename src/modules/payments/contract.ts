import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok, Payload, PayloadText } from "../../platform/http/schemas"
import { Authentication } from "../../platform/http/authentication"

// The module's HTTP contract: schemas, endpoints, groups. Pure (no server code): the UI imports its types.

export const ConnectStatusView = Schema.Struct({
  hasAccount: Schema.Boolean,
  accountId: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  chargesEnabled: Schema.Boolean,
  payoutsEnabled: Schema.Boolean,
  detailsSubmitted: Schema.Boolean,
  /** What the payment provider still needs, by its codes (`external_account`, `individual.verification.document`…); the screen names them. */
  requirementsDue: Schema.Array(Schema.String),
  /** Why the payment provider restricted the account (`requirements.past_due`, `rejected.fraud`…), or null. */
  disabledReason: Schema.NullOr(Schema.String)
})

/** The spec's client reads these three answers one level deeper: `data.data`. */
const Nested = <A, I, R>(schema: Schema.Schema<A, I, R>) => Ok(Schema.Struct({ data: schema }))

/** A provider's own payout account (PROVIDER role; others get 403). */
export class StripeConnectApi extends HttpApiGroup.make("stripeConnect")
  .add(HttpApiEndpoint.get("status", "/status").addSuccess(Nested(ConnectStatusView)))
  .add(
    HttpApiEndpoint.post("onboarding", "/onboarding")
      // Loosely typed on purpose: a missing or invalid country is a 422 with the spec's messages.
      .setPayload(Payload({ country: Schema.optional(PayloadText) }))
      .addSuccess(Nested(Schema.Struct({ accountLink: Schema.String })))
  )
  .add(HttpApiEndpoint.get("dashboard", "/dashboard").addSuccess(Nested(Schema.Struct({ dashboardUrl: Schema.String }))))
  .middleware(Authentication)
  .prefix("/users/me/stripe-connect") {}

export const WebhookReceiptView = Schema.Struct({ received: Schema.Literal(true), duplicate: Schema.Boolean })

/** Gateway events (Stripe, or the sandbox), authenticated by their signature over the raw body. */
export class PaymentsWebhookApi extends HttpApiGroup.make("paymentsWebhook")
  .add(
    HttpApiEndpoint.post("webhook", "/webhook")
      .addSuccess(Ok(WebhookReceiptView))
      .annotate(
        OpenApi.Description,
        "The platform's events (checkout, payment intents, setup intents, charges): raw JSON event body, verified with the Stripe-Signature header and STRIPE_WEBHOOK_SECRET (400 when absent or wrong, or for a connected account's event)."
      )
  )
  .add(
    HttpApiEndpoint.post("connectWebhook", "/webhook/connect")
      .addSuccess(Ok(WebhookReceiptView))
      .annotate(
        OpenApi.Description,
        "Connected accounts' events (account.updated, account.application.deauthorized): raw JSON event body, verified with the Stripe-Signature header and STRIPE_CONNECT_WEBHOOK_SECRET (400 when absent or wrong, or for a platform event)."
      )
  )
  .prefix("/payments") {}
