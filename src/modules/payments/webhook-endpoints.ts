/**
 * Stripe sends a platform's own events (Checkout, PaymentIntents, charges) to endpoints created for
 * "your account", and connected accounts' events (`account.updated`) only to endpoints created for
 * "connected accounts", each endpoint with its own signing secret. The app has one of each.
 */
export type WebhookEndpoint = "platform" | "connect"

/** The event types that only a connected-accounts endpoint receives (and the only ones it accepts). */
export const CONNECT_EVENT_TYPES: ReadonlyArray<string> = ["account.updated", "account.application.deauthorized"]

/** Which endpoint a Stripe event type is delivered to. */
export const webhookEndpointOf = (type: string): WebhookEndpoint => (CONNECT_EVENT_TYPES.includes(type) ? "connect" : "platform")

/** Where each endpoint listens (under the app's origin). */
export const webhookPaths: Readonly<Record<WebhookEndpoint, string>> = {
  platform: "/api/payments/webhook",
  connect: "/api/payments/webhook/connect"
}

/** The configuration variable that holds each endpoint's signing secret. */
export const webhookSecretVariables: Readonly<Record<WebhookEndpoint, string>> = {
  platform: "STRIPE_WEBHOOK_SECRET",
  connect: "STRIPE_CONNECT_WEBHOOK_SECRET"
}
