import { Layer } from "effect"
import { ChargeGatewayLive } from "./adapters/charges"
import { SandboxCheckoutLive } from "./adapters/charges-sandbox"
import { ConnectedAccountGatewayLive } from "./adapters/gateway"
import { SandboxConnectLive } from "./adapters/sandbox"
import { AdminPaymentAccountsLive } from "./admin"
import { ConnectedAccountsLive, PaymentAccountsLive } from "./service"

/** Both gateways PAYMENTS_MODE chose: connected accounts and card payments. */
export const PaymentGatewaysLive = Layer.mergeAll(ConnectedAccountGatewayLive, ChargeGatewayLive)

/**
 * Every payments service over the gateways PAYMENTS_MODE chose (ChargeGateway included, for the
 * booking module). Needs the module's stores (PaymentsPostgresAdapters or PaymentsMemoryAdapters),
 * Transactional and AppConfig. PaymentWebhooksLive is composed apart, once the booking module's
 * ChargeEventSink exists (it needs ChargeGateway from here): see src/app/layers.ts.
 */
export const PaymentsServicesLive = Layer.mergeAll(
  PaymentAccountsLive,
  ConnectedAccountsLive,
  SandboxConnectLive,
  SandboxCheckoutLive
).pipe(
  // Administrators' actions on providers' accounts go through the providers' own onboarding.
  (services) => AdminPaymentAccountsLive.pipe(Layer.provideMerge(services)),
  Layer.provideMerge(PaymentGatewaysLive)
)
