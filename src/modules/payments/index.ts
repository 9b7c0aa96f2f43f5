export {
  ALLOWED_COUNTRIES,
  canTakeCharges,
  type ConnectStatus,
  type Country,
  type PaymentAccount,
  statusOf,
  supersedes,
  validateCountry
} from "./domain"
export {
  type ConnectedAccountGatewayShape,
  ConnectedAccountGateway,
  type GatewayAccount,
  type GatewayEvent,
  InvalidWebhook,
  PaymentAccountRepository,
  PaymentGatewayError,
  SandboxAccountStore,
  WebhookEventStore
} from "./ports"
export { ConnectedAccounts, ConnectedAccountsLive, PaymentAccounts, PaymentAccountsLive } from "./service"
export { eventHandlers, PaymentWebhooks, PaymentWebhooksLive } from "./webhooks"
export { ConnectStatusView, PaymentsWebhookApi, StripeConnectApi } from "./api"
export { PaymentsWebhookHttpLive, StripeConnectHttpLive } from "./http"
export { PaymentAccountRepositoryLive, PaymentsPostgresAdapters, SandboxAccountStoreLive, WebhookEventStoreLive } from "./adapters/postgres"
export { PaymentsMemoryAdapters } from "./adapters/memory"
export { ConnectedAccountGatewayLive } from "./adapters/gateway"
export { makeStripeClient, StripeGatewayLive } from "./adapters/stripe"
export { SandboxConnect, SandboxConnectLive, SandboxGatewayLive, sandboxPaths } from "./adapters/sandbox"
export { signPayload, verifyEvent, webhookSecretOf } from "./adapters/signature"
export { PaymentsServicesLive } from "./live"
