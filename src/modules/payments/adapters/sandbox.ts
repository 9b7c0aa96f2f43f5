import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { now as currentTime } from "../../../platform/clock"
import { AppConfig } from "../../../platform/config"
import { idempotencyKeys, NO_REQUIREMENTS } from "../domain"
import { ConnectedAccountGateway, PaymentAccountRepository, PaymentGatewayError, type SandboxAccount, SandboxAccountStore } from "../ports"
import { JobQueue } from "../../../platform/jobs"
import { Transactional } from "../../../platform/transaction"
import { type SandboxEvent, sandboxEventSender, stamp, type StampedEvent } from "./sandbox-events"
import { verifyEvent, webhookSecretOf } from "./signature"
import { webhookSecretVariables } from "../webhook-endpoints"

const trimSlash = (url: string) => url.replace(/\/+$/, "")
const randomId = (prefix: string) => `${prefix}${crypto.randomBytes(12).toString("hex")}`

/** Whether a URL leads to the given origin (the sandbox's pages only send browsers back to the marketplace). */
export const onOrigin = (origin: string) => (url: string) => {
  try {
    return new URL(url).origin === origin
  } catch {
    return false
  }
}

/** The app's own pages that play Stripe's hosted onboarding and Express dashboard. */
export const sandboxPaths = {
  onboarding: (accountId: string) => `/sandbox/connect/onboarding/${encodeURIComponent(accountId)}`,
  dashboard: (accountId: string) => `/sandbox/connect/dashboard/${encodeURIComponent(accountId)}`,
  checkout: (sessionId: string) => `/sandbox/checkout/${encodeURIComponent(sessionId)}`
}

const missing = (operation: string, accountId: string) =>
  new PaymentGatewayError({
    operation,
    detail: `invalid_request_error resource_missing No such account: '${accountId}'`,
    code: "resource_missing"
  })

/**
 * The offline gateway (PAYMENTS_MODE=sandbox, the default without STRIPE_SECRET_KEY): accounts live in
 * `sandbox_accounts`, links lead to local pages, events are signed like Stripe's.
 */
export const SandboxGatewayLive = Layer.effect(
  ConnectedAccountGateway,
  Effect.gen(function* () {
    const config = yield* AppConfig
    const store = yield* SandboxAccountStore
    const webhookSecrets = { platform: webhookSecretOf(config, "platform"), connect: webhookSecretOf(config, "connect") }
    const base = trimSlash(config.publicUrl)
    const existing = (operation: string, accountId: string) =>
      Effect.flatMap(
        store.find(accountId),
        Option.match({ onNone: () => Effect.fail(missing(operation, accountId)), onSome: Effect.succeed })
      )
    return {
      kind: "sandbox" as const,
      createAccount: ({ userId, email, country, replaces }) =>
        Effect.map(
          store.create(
            { accountId: randomId("acct_sandbox_"), userId, email, country },
            idempotencyKeys.createAccount(userId, country, replaces)
          ),
          (account) => account.accountId
        ),
      createOnboardingLink: ({ accountId, returnUrl, refreshUrl, locale }) =>
        Effect.as(
          existing("accountLinks.create", accountId),
          `${base}${sandboxPaths.onboarding(accountId)}?${new URLSearchParams({ return: returnUrl, refresh: refreshUrl, ...(locale ? { lang: locale } : {}) })}`
        ),
      createDashboardLink: (accountId) =>
        Effect.as(existing("accounts.createLoginLink", accountId), `${base}${sandboxPaths.dashboard(accountId)}`),
      retrieveAccount: (accountId) =>
        Effect.map(existing("accounts.retrieve", accountId), ({ userId: _, email: __, ...account }) => ({
          ...account,
          ...sandboxRequirements(account)
        })),
      deleteAccount: (accountId) =>
        Effect.flatMap(store.remove(accountId), (removed) => (removed ? Effect.void : Effect.fail(missing("accounts.del", accountId)))),
      parseWebhook: (endpoint, rawBody, signature) =>
        verifyEvent(webhookSecrets[endpoint], rawBody, signature, webhookSecretVariables[endpoint])
    }
  })
)

/** What only the sandbox does: the outcome of its onboarding pages, and ready accounts for demo data. */
export class SandboxConnect extends Context.Tag("payments/SandboxConnect")<
  SandboxConnect,
  {
    readonly find: (accountId: string) => Effect.Effect<Option.Option<SandboxAccount>>
    /** Onboarding completed: every flag on, then `account.updated` is delivered to the app's webhook. */
    readonly complete: (accountId: string) => Effect.Effect<Option.Option<SandboxAccount>>
    /** Gives a user a completed sandbox account (idempotent); "skipped" when the sandbox is not the gateway. */
    readonly provisionReady: (
      user: { readonly id: string; readonly email: string },
      country: string
    ) => Effect.Effect<"created" | "completed" | "ready" | "skipped">
    /** Return and refresh addresses must lead back to the marketplace (no open redirect). */
    readonly isOwnUrl: (url: string) => boolean
  }
>() {}

const FLAGS_READY = { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true } as const
const READY = { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, ...NO_REQUIREMENTS } as const

/**
 * What the sandbox asks of an account, as Stripe asks of a new Express account: until its onboarding
 * is done, a bank account, an identity document and the terms, with charges disabled for them.
 */
export const sandboxRequirements = (account: { readonly detailsSubmitted: boolean }) =>
  account.detailsSubmitted
    ? NO_REQUIREMENTS
    : {
        requirementsDue: ["external_account", "individual.verification.document", "tos_acceptance.date"],
        disabledReason: "requirements.past_due"
      }

export const SandboxConnectLive = Layer.effect(
  SandboxConnect,
  Effect.gen(function* () {
    const config = yield* AppConfig
    const store = yield* SandboxAccountStore
    const accounts = yield* PaymentAccountRepository
    const events = sandboxEventSender(config)
    const jobs = yield* JobQueue
    const tx = yield* Transactional
    const origin = new URL(config.publicUrl).origin

    const accountUpdated = (account: SandboxAccount): SandboxEvent => ({
      type: "account.updated",
      object: {
        id: account.accountId,
        object: "account",
        // As Stripe shows an account created with controller properties and the Express dashboard.
        type: "express",
        controller: {
          type: "application",
          stripe_dashboard: { type: "express" },
          fees: { payer: "application" },
          losses: { payments: "application" },
          requirement_collection: "stripe"
        },
        country: account.country,
        email: account.email,
        charges_enabled: account.chargesEnabled,
        payouts_enabled: account.payoutsEnabled,
        details_submitted: account.detailsSubmitted,
        metadata: { userId: account.userId }
      }
    })

    return {
      find: store.find,
      // The event, and its durable redelivery, in the transaction of the change; delivered at once after it.
      complete: (accountId) =>
        Effect.gen(function* () {
          const { account, event } = yield* tx.run(
            Effect.gen(function* () {
              const account = yield* store.setFlags(accountId, READY)
              if (Option.isNone(account)) return { account, event: Option.none<StampedEvent>() }
              const event = yield* stamp(accountUpdated(account.value))
              yield* events.redeliverLater(jobs, [event])
              return { account, event: Option.some(event) }
            })
          )
          if (Option.isSome(event)) yield* events.deliver(event.value)
          return account
        }),
      provisionReady: (user, country) =>
        Effect.gen(function* () {
          if (config.paymentsMode !== "sandbox") return "skipped" as const
          const now = yield* currentTime
          const stored = yield* accounts.findByUser(user.id)
          if (Option.isSome(stored) && stored.value.gateway === "sandbox") {
            const remote = yield* store.find(stored.value.accountId)
            if (Option.isSome(remote)) {
              const s = stored.value
              if (s.chargesEnabled && s.payoutsEnabled && s.detailsSubmitted && remote.value.chargesEnabled) return "ready" as const
              const completed = yield* store.setFlags(s.accountId, FLAGS_READY)
              yield* accounts.recordGatewayState(s.accountId, { country: Option.getOrThrow(completed).country, ...READY }, now)
              return "completed" as const
            }
          }
          const created = yield* store.create(
            { accountId: randomId("acct_sandbox_"), userId: user.id, email: user.email, country },
            idempotencyKeys.createAccount(user.id, country)
          )
          yield* store.setFlags(created.accountId, FLAGS_READY)
          yield* accounts.upsert({ userId: user.id, gateway: "sandbox", accountId: created.accountId, country: created.country, ...READY })
          return "created" as const
        }),
      isOwnUrl: onOrigin(origin)
    }
  })
)
