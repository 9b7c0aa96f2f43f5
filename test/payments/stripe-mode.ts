import { type Context, Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import type { CheckoutRequest } from "../../src/modules/payments/ports"
import { type AppConfig, AppConfigOf, type AppConfigShape } from "../../src/platform/config"
import { scratchDir } from "../support/scratch"

// The payment adapters of Stripe mode against the local fake of Stripe's API (./fake-stripe.ts), with
// nothing else of the app around them.

/** The app's settings in Stripe mode, its API at `apiBase`; `overrides` adds or replaces (another webhook secret...). */
export const stripeModeSettings = (apiBase: string, overrides: Partial<AppConfigShape> = {}): Partial<AppConfigShape> => ({
  paymentsMode: "stripe",
  stripeSecretKey: Option.some(Redacted.make("sk_test_fake_key")),
  stripeWebhookSecret: Option.some(Redacted.make("whsec_charges")),
  stripeApiBase: Option.some(apiBase),
  ...overrides
})

/**
 * One adapter (`layer`, providing `tag`) in Stripe mode against `apiBase`, with a DATA_DIR of its own and
 * its logs off: `run(f)` runs `f` on its service; `dispose()` ends it.
 */
export const stripeAdapterOn = <I, S, E>(
  tag: Context.Tag<I, S>,
  layer: Layer.Layer<I, E, AppConfig>,
  apiBase: string,
  overrides: Partial<AppConfigShape> = {}
) => {
  const config = AppConfigOf({ dataDir: scratchDir("stripe"), ...stripeModeSettings(apiBase, overrides) })
  const runtime = ManagedRuntime.make(layer.pipe(Layer.provide(config), Layer.provide(Logger.minimumLogLevel(LogLevel.None))))
  return {
    run: <A, F>(f: (service: S) => Effect.Effect<A, F>) => runtime.runPromise(Effect.flatMap(tag, f)),
    dispose: () => runtime.dispose()
  }
}

/** A checkout of `bookingId` for a 2-hour cleaning: 120.00 CAD held for the provider's account, 6.00 to the platform. */
export const checkoutOf = (bookingId: string, overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  bookingId,
  mode: "authorize",
  amountMinor: 12_000,
  currency: "CAD",
  productName: "Ménage — 2 h",
  destinationAccountId: "acct_provider_1",
  applicationFeeMinor: 600,
  customerEmail: "zoe@example.com",
  successUrl: "https://market.example/bookings?payment=success",
  cancelUrl: "https://market.example/services/1?payment=cancelled",
  idempotencyKey: `booking:${bookingId}:checkout:1`,
  ...overrides
})
