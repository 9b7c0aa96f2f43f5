export {
  ALLOWED_COUNTRIES,
  canTakeCharges,
  type ConnectStatus,
  type Country,
  type PaymentAccount,
  PaymentGatewayUnavailable,
  statusOf,
  supersedes,
  validateCountry
} from "./domain"
export {
  type BillingDetails,
  type ChargeEvent,
  ChargeEventSink,
  ChargeGateway,
  type ChargeGatewayShape,
  type CheckoutRequest,
  type CheckoutSession,
  type OffSessionRequest,
  type OffSessionResult,
  type ConnectedAccountGatewayShape,
  ConnectedAccountGateway,
  type GatewayAccount,
  type GatewayEvent,
  GatewayAttempts,
  InvalidWebhook,
  PaymentAccountRepository,
  PaymentGatewayError,
  SandboxAccountStore,
  SandboxChargeStore,
  type SandboxCheckoutSession,
  WebhookEventStore
} from "./ports"
export { chargeEventTypes, toChargeEvent } from "./charge-events"
export { ConnectedAccounts, ConnectedAccountsLive, PaymentAccounts, PaymentAccountsLive } from "./service"
export { eventHandlers, PaymentWebhooks, PaymentWebhooksLive } from "./webhooks"
export { ConnectStatusView, PaymentsWebhookApi, StripeConnectApi } from "./contract"
export { PaymentsWebhookHttpLive, StripeConnectHttpLive } from "./http"
export {
  GatewayAttemptsLive,
  PaymentAccountRepositoryLive,
  PaymentsPostgresAdapters,
  SandboxAccountStoreLive,
  SandboxChargeStoreLive,
  WebhookEventStoreLive
} from "./adapters/postgres"
export { PaymentsMemoryAdapters } from "./adapters/memory"
export { ConnectedAccountGatewayLive } from "./adapters/gateway"
export { makeStripeClient, StripeGatewayLive } from "./adapters/stripe"
export { SandboxConnect, SandboxConnectLive, SandboxGatewayLive, sandboxPaths } from "./adapters/sandbox"
export { ChargeGatewayLive } from "./adapters/charges"
export { StripeChargeGatewayLive } from "./adapters/charges-stripe"
export {
  type CardProblem,
  type CheckoutState,
  type PayOutcome,
  SandboxChargeGatewayLive,
  SandboxCheckout,
  SandboxCheckoutLive,
  TEST_CARDS
} from "./adapters/charges-sandbox"
export { signPayload, verifyEvent, webhookSecretOf } from "./adapters/signature"
// The sandbox's pages standing in for Stripe's hosted onboarding, dashboard and Checkout.
export { sandboxCheckoutRoutes } from "./adapters/sandbox/checkout-page"
export { sandboxConnectRoutes } from "./adapters/sandbox/connect-page"
export { SANDBOX_DELIVERY_QUEUE, SandboxDeliveryJobsLive } from "./adapters/sandbox-events"
export { PaymentGatewaysLive, PaymentsServicesLive } from "./live"
export { withAttemptKeys, withAttemptKeysLayer } from "./attempts"
export { attemptKey, keyCoveringParameters } from "./idempotency"
export { CONNECT_EVENT_TYPES, type WebhookEndpoint, webhookEndpointOf, webhookPaths } from "./webhook-endpoints"
export { AccountToCreateFirst, ADMIN_DEFAULT_COUNTRY, AdminPaymentAccounts, AdminPaymentAccountsLive, NoAccountToDelete, NotAProvider } from "./admin"
