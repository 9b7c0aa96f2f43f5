import { Effect, Layer } from "effect"
import { AppConfig } from "../../../platform/config"
import { ConnectedAccountGateway, SandboxAccountStore } from "../ports"
import { SandboxGatewayLive } from "./sandbox"
import { StripeGatewayLive } from "./stripe"

/** The gateway PAYMENTS_MODE chose (see resolvePaymentsMode): Stripe's API or the local sandbox. */
export const ConnectedAccountGatewayLive: Layer.Layer<ConnectedAccountGateway, never, AppConfig | SandboxAccountStore> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.paymentsMode === "stripe" ? StripeGatewayLive : SandboxGatewayLive))
)
