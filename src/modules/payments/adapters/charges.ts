import { Effect, Layer } from "effect"
import { AppConfig } from "../../../platform/config"
import type { Transactional } from "../../../platform/transaction"
import { ChargeGateway, type SandboxChargeStore } from "../ports"
import { SandboxChargeGatewayLive } from "./charges-sandbox"
import { StripeChargeGatewayLive } from "./charges-stripe"

/** The card gateway PAYMENTS_MODE chose (see resolvePaymentsMode): Stripe's API or the local sandbox. */
export const ChargeGatewayLive: Layer.Layer<ChargeGateway, never, AppConfig | SandboxChargeStore | Transactional> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.paymentsMode === "stripe" ? StripeChargeGatewayLive : SandboxChargeGatewayLive))
)
