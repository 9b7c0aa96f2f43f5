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
export { withAttemptKeys, withAttemptKeysLayer } from "./attempts"
export { attemptKey, keyCoveringParameters } from "./idempotency"
export { CONNECT_EVENT_TYPES, type WebhookEndpoint, webhookEndpointOf, webhookPaths } from "./webhook-endpoints"
export { AccountToCreateFirst, ADMIN_DEFAULT_COUNTRY, AdminPaymentAccounts, AdminPaymentAccountsLive, NoAccountToDelete, NotAProvider } from "./admin"
