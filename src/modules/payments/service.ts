import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import { Transactional } from "../../platform/transaction"
import type { Conflict, Forbidden, NotFound, ValidationFailed } from "../../platform/errors"
import { requireRole, type User } from "../identity"
import {
  canTakeCharges,
  type ConnectStatus,
  type GatewayKind,
  NO_REQUIREMENTS,
  onboardingReturnUrls,
  type PaymentAccount,
  PaymentAccountIncomplete,
  PaymentAccountNotFound,
  statusOf,
  validateCountry
} from "./domain"
import { ConnectedAccountGateway, PaymentAccountRepository, type PaymentGatewayError } from "./ports"

/**
 * Whether a stored account counts under the running gateway. In stripe mode only Stripe accounts do:
 * a sandbox account left from a demo must never make a provider look payable for real. In sandbox
 * mode any account counts (demo data, tests).
 */
const countsUnder = (mode: GatewayKind) => (account: PaymentAccount) => mode === "sandbox" || account.gateway === "stripe"

/** What other modules ask of payments about providers' payout accounts. */
export class PaymentAccounts extends Context.Tag("payments/PaymentAccounts")<
  PaymentAccounts,
  {
    readonly accountOf: (userId: string) => Effect.Effect<Option.Option<PaymentAccount>>
    /** True when the provider's connected account can take card payments (required to publish). */
    readonly canTakeCharges: (userId: string) => Effect.Effect<boolean>
  }
>() {}

export const PaymentAccountsLive = Layer.effect(
  PaymentAccounts,
  Effect.gen(function* () {
    const accounts = yield* PaymentAccountRepository
    const { paymentsMode } = yield* AppConfig
    const accountOf = (userId: string) => Effect.map(accounts.findByUser(userId), Option.filter(countsUnder(paymentsMode)))
    return {
      accountOf,
      canTakeCharges: (userId) => Effect.map(accountOf(userId), (a) => canTakeCharges(Option.getOrUndefined(a)))
    }
  })
)

/** A provider's own payout setup (spec admin-and-onboarding sections 2, 3, 5 and 7). */
export class ConnectedAccounts extends Context.Tag("payments/ConnectedAccounts")<
  ConnectedAccounts,
  {
    /** The account's status, refreshed from the gateway (the stored copy answers when it is unreachable). */
    readonly status: (user: User) => Effect.Effect<ConnectStatus, Forbidden>
    /** Creates the account when missing, then a fresh onboarding link. */
    readonly startOnboarding: (
      user: User,
      country: string | undefined,
      /** Run in the transaction that stores a new account (an administrator's creation records its audit entry there). */
      onCreated?: (account: {
        readonly accountId: string
        readonly country: string
        readonly replaces: string | null
      }) => Effect.Effect<void>
    ) => Effect.Effect<{ readonly accountLink: string }, Forbidden | ValidationFailed | PaymentGatewayError>
    readonly dashboard: (
      user: User
    ) => Effect.Effect<{ readonly dashboardUrl: string }, Forbidden | NotFound | Conflict | PaymentGatewayError>
  }
>() {}

export const ConnectedAccountsLive = Layer.effect(
  ConnectedAccounts,
  Effect.gen(function* () {
    const accounts = yield* PaymentAccountRepository
    const gateway = yield* ConnectedAccountGateway
    const config = yield* AppConfig
    const tx = yield* Transactional

    /** The user's account at the running gateway (one left at another gateway is replaced by onboarding). */
    const accountAtGateway = (userId: string) =>
      Effect.map(
        accounts.findByUser(userId),
        Option.filter((a) => a.gateway === gateway.kind)
      )

    const refresh = (account: PaymentAccount) =>
      gateway.retrieveAccount(account.accountId).pipe(
        Effect.flatMap((fresh) =>
          Effect.gen(function* () {
            const state = { ...fresh, country: fresh.country || account.country }
            const recorded = yield* accounts.recordGatewayState(account.accountId, state, yield* now)
            // A newer webhook state may have won the race; the gateway's answer is the latest truth either way.
            return Option.match(recorded, { onNone: () => ({ ...account, ...state }), onSome: ({ account: a }) => ({ ...a, ...state }) })
          })
        ),
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning(`payments: status of ${account.accountId} not refreshed (${error.detail}), stored copy answered`),
            account
          )
        )
      )

    return {
      status: (user) =>
        Effect.gen(function* () {
          yield* requireRole(user, "PROVIDER")
          const account = yield* accountAtGateway(user.id)
          if (Option.isNone(account)) return statusOf(undefined)
          return statusOf(yield* refresh(account.value))
        }),

      startOnboarding: (user, countryInput, onCreated) =>
        Effect.gen(function* () {
          yield* requireRole(user, "PROVIDER")
          const country = yield* validateCountry(countryInput)
          const existing = yield* accountAtGateway(user.id)
          const newAccount = (replaces?: string) =>
            Effect.tap(gateway.createAccount({ userId: user.id, email: user.email, country, replaces }), (accountId) =>
              tx.run(
                Effect.zipRight(
                  accounts.upsert({
                    userId: user.id,
                    gateway: gateway.kind,
                    accountId,
                    country,
                    chargesEnabled: false,
                    payoutsEnabled: false,
                    detailsSubmitted: false,
                    // Known at the first refresh or account.updated.
                    ...NO_REQUIREMENTS
                  }),
                  onCreated === undefined ? Effect.void : onCreated({ accountId, country, replaces: replaces ?? null })
                )
              )
            )
          const linkTo = (accountId: string) =>
            gateway.createOnboardingLink({ accountId, ...onboardingReturnUrls(config.publicUrl), locale: user.preferredLanguage })
          // The country of an existing account cannot change (Stripe fixes it at creation). An account
          // the gateway no longer has (deleted on its side) is replaced, or the provider could never onboard again.
          const accountLink = Option.isSome(existing)
            ? yield* linkTo(existing.value.accountId).pipe(
                Effect.catchIf(
                  (error) => error.isMissing,
                  () => Effect.flatMap(newAccount(existing.value.accountId), linkTo)
                )
              )
            : yield* Effect.flatMap(newAccount(), linkTo)
          return { accountLink }
        }),

      dashboard: (user) =>
        Effect.gen(function* () {
          yield* requireRole(user, "PROVIDER")
          const stored = yield* accountAtGateway(user.id)
          if (Option.isNone(stored)) return yield* PaymentAccountNotFound
          const account = stored.value.detailsSubmitted ? stored.value : yield* refresh(stored.value)
          if (!account.detailsSubmitted) return yield* PaymentAccountIncomplete
          // An account the gateway no longer has: the provider sets up payouts again (onboarding replaces it).
          const dashboardUrl = yield* gateway.createDashboardLink(account.accountId).pipe(
            Effect.catchIf(
              (error) => error.isMissing,
              () => PaymentAccountNotFound
            )
          )
          return { dashboardUrl }
        })
    }
  })
)
