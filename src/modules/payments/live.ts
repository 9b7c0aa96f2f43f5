import { Layer } from "effect"
import { ConnectedAccountGatewayLive } from "./adapters/gateway"
import { SandboxConnectLive } from "./adapters/sandbox"
import { ConnectedAccountsLive, PaymentAccountsLive } from "./service"
import { PaymentWebhooksLive } from "./webhooks"

/**
 * Every payments service over the gateway PAYMENTS_MODE chose. Needs the module's stores
 * (PaymentsPostgresAdapters or PaymentsMemoryAdapters), Transactional and AppConfig.
 */
export const PaymentsServicesLive = Layer.mergeAll(PaymentAccountsLive, ConnectedAccountsLive, PaymentWebhooksLive, SandboxConnectLive).pipe(
  Layer.provideMerge(ConnectedAccountGatewayLive)
)
