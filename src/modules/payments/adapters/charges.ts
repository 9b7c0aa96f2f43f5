import { Effect, Layer } from "effect"
import { AppConfig } from "../../../platform/config"
import type { JobQueue } from "../../../platform/jobs"
import type { Transactional } from "../../../platform/transaction"
import { withAttemptKeysLayer } from "../attempts"
import { ChargeGateway, type GatewayAttempts, type SandboxAccountStore, type SandboxChargeStore } from "../ports"
import { SandboxChargeGatewayLive } from "./charges-sandbox"
import { StripeChargeGatewayLive } from "./charges-stripe"

/**
 * The card gateway PAYMENTS_MODE chose (see resolvePaymentsMode): Stripe's API or the local sandbox,
 * each write under the idempotency key of its attempt (see attempts.ts).
 */
export const ChargeGatewayLive: Layer.Layer<
  ChargeGateway,
  never,
  AppConfig | SandboxChargeStore | SandboxAccountStore | Transactional | GatewayAttempts | JobQueue
> = withAttemptKeysLayer(
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) => (config.paymentsMode === "stripe" ? StripeChargeGatewayLive : SandboxChargeGatewayLive))
  )
)
