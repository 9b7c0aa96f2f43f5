import { Effect, Layer, Option, Redacted } from "effect"
import { requirementsOf } from "../rules"
import { STRIPE_API_VERSION } from "../stripe-version"
import * as crypto from "node:crypto"
import Stripe from "stripe"
import { AppConfig } from "../../../platform/config"
import { idempotencyKeys } from "../domain"
import { ConnectedAccountGateway, type GatewayAccount, PaymentGatewayError } from "../ports"
import { verifyEvent, webhookSecretOf } from "./signature"
import { webhookSecretVariables } from "../webhook-endpoints"

/** A stripe client; `apiBase` (STRIPE_API_BASE) points it at another origin, such as a local fake. */
export const makeStripeClient = (secretKey: string, apiBase: Option.Option<string>) => {
  const base = Option.map(apiBase, (url) => new URL(url))
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    // The UI waits 30 s for our answer: three attempts of at most 8 s (with backoff) fit in it.
    timeout: 8_000,
    telemetry: false,
    appInfo: { name: "marketplace" },
    ...Option.match(base, {
      onNone: () => ({}),
      onSome: (url) => ({
        host: url.hostname,
        port: url.port || (url.protocol === "http:" ? 80 : 443),
        protocol: url.protocol === "http:" ? ("http" as const) : ("https" as const)
      })
    })
  })
}

/** Runs one Stripe call: any failure (Stripe's answer or the network) is a PaymentGatewayError, logged. */
export const call = <A>(operation: string, run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (error) => {
      const e = error as { type?: string; code?: string; message?: string; statusCode?: number }
      return new PaymentGatewayError({
        operation,
        detail: [e.type, e.statusCode, e.code, e.message].filter((part) => part !== undefined && part !== "").join(" ") || String(error),
        ...(e.code ? { code: e.code } : {}),
        // No status: the request timed out or never reached Stripe. 409: the key's first request is still running.
        ...(e.statusCode === undefined || e.statusCode === 409 ? { unanswered: true } : {})
      })
    }
  }).pipe(Effect.tapError((error) => Effect.logWarning(`stripe ${operation} failed: ${error.detail}`)))

export const toGatewayAccount = (account: Stripe.Account): GatewayAccount => ({
  accountId: account.id,
  country: account.country ?? "",
  chargesEnabled: account.charges_enabled === true,
  payoutsEnabled: account.payouts_enabled === true,
  detailsSubmitted: account.details_submitted === true,
  ...requirementsOf(account.requirements)
})

/** Stripe Connect, accounts with the Express dashboard (STRIPE_SECRET_KEY, STRIPE_CONNECT_WEBHOOK_SECRET, STRIPE_API_BASE). */
export const StripeGatewayLive = Layer.effect(
  ConnectedAccountGateway,
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (Option.isNone(config.stripeSecretKey)) {
      return yield* Effect.dieMessage("PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY")
    }
    const stripe = makeStripeClient(Redacted.value(config.stripeSecretKey.value), config.stripeApiBase)
    const webhookSecrets = { platform: webhookSecretOf(config, "platform"), connect: webhookSecretOf(config, "connect") }
    if (Option.isNone(webhookSecrets.platform)) {
      yield* Effect.logWarning(
        "STRIPE_WEBHOOK_SECRET is unset: deliveries of payment events will be refused (bookings then miss their payments' news)"
      )
    }
    if (Option.isNone(webhookSecrets.connect)) {
      yield* Effect.logWarning(
        "STRIPE_CONNECT_WEBHOOK_SECRET is unset: account.updated deliveries will be refused (account flags then only refresh on status reads)"
      )
    }
    const attempt = () => crypto.randomUUID()
    return {
      kind: "stripe" as const,
      createAccount: ({ userId, email, country, replaces }) =>
        call("accounts.create", () =>
          stripe.accounts.create(
            {
              // Controller properties replace the deprecated `type: "express"`: the same Express
              // dashboard (login links keep working), the platform pays Stripe's fees and bears
              // payment losses, Stripe collects the requirements (hosted onboarding).
              controller: {
                stripe_dashboard: { type: "express" },
                fees: { payer: "application" },
                losses: { payments: "application" },
                requirement_collection: "stripe"
              },
              country,
              email,
              capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
              metadata: { userId }
            },
            { idempotencyKey: idempotencyKeys.createAccount(userId, country, replaces) }
          )
        ).pipe(Effect.map((account) => account.id)),
      createOnboardingLink: ({ accountId, returnUrl, refreshUrl }) =>
        call("accountLinks.create", () =>
          stripe.accountLinks.create(
            { account: accountId, type: "account_onboarding", return_url: returnUrl, refresh_url: refreshUrl },
            { idempotencyKey: idempotencyKeys.onboardingLink(accountId, attempt()) }
          )
        ).pipe(Effect.map((link) => link.url)),
      createDashboardLink: (accountId) =>
        call("accounts.createLoginLink", () =>
          stripe.accounts.createLoginLink(accountId, {}, { idempotencyKey: idempotencyKeys.dashboardLink(accountId, attempt()) })
        ).pipe(Effect.map((link) => link.url)),
      retrieveAccount: (accountId) =>
        call("accounts.retrieve", () => stripe.accounts.retrieve(accountId)).pipe(Effect.map(toGatewayAccount)),
      deleteAccount: (accountId) => call("accounts.del", () => stripe.accounts.del(accountId)).pipe(Effect.asVoid),
      parseWebhook: (endpoint, rawBody, signature) =>
        verifyEvent(webhookSecrets[endpoint], rawBody, signature, webhookSecretVariables[endpoint])
    }
  })
)
