import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import { Transactional } from "../../platform/transaction"
import { AuditTrail } from "../../platform/audit/port"
import { Conflict, type Forbidden, NotFound, type ValidationFailed } from "../../platform/errors"
import { type Actor, requireRole, type User } from "../identity"
import { type ConnectStatus, onboardingReturnUrls, type PaymentAccount, PaymentAccountIncomplete, statusOf } from "./domain"
import { ConnectedAccountGateway, PaymentAccountRepository, type PaymentGatewayError } from "./ports"
import { ConnectedAccounts } from "./service"

/** Country of an account an administrator opens for a provider when none is given (the marketplace works from Canada). */
export const ADMIN_DEFAULT_COUNTRY = "CA"

/** "Create the payment account first" (spec admin section 2, /admin/users). */
export const AccountToCreateFirst = new NotFound({ code: "PAYMENT_ACCOUNT_NOT_FOUND", key: "admin.createAccountFirst" })
export const NoAccountToDelete = new NotFound({ code: "PAYMENT_ACCOUNT_NOT_FOUND", key: "admin.noAccountToDelete" })
export const NotAProvider = new Conflict({ code: "NOT_A_PROVIDER", key: "admin.notAProvider" })

/**
 * An administrator's actions on a provider's connected account (spec admin sections 2 and 7: create,
 * link, status, dashboard, delete). The same gateway and records as the provider's own payout setup.
 */
export class AdminPaymentAccounts extends Context.Tag("payments/AdminPaymentAccounts")<
  AdminPaymentAccounts,
  {
    /** Creates the provider's account when missing (country ADMIN_DEFAULT_COUNTRY unless given) and answers an onboarding link. */
    readonly create: (
      actor: Actor,
      provider: User,
      country: string | undefined
    ) => Effect.Effect<{ readonly accountLink: string }, Forbidden | Conflict | ValidationFailed | PaymentGatewayError>
    readonly link: (actor: Actor, user: User) => Effect.Effect<{ readonly accountLink: string }, Forbidden | NotFound | PaymentGatewayError>
    /** Refreshed from the gateway (the stored copy answers when it is unreachable). */
    readonly status: (actor: Actor, user: User) => Effect.Effect<ConnectStatus, Forbidden | NotFound>
    readonly dashboard: (
      actor: Actor,
      user: User
    ) => Effect.Effect<{ readonly dashboardUrl: string }, Forbidden | NotFound | Conflict | PaymentGatewayError>
    /** Closes the account at the gateway (already gone there is fine) and forgets it. */
    readonly remove: (actor: Actor, user: User) => Effect.Effect<PaymentAccount, Forbidden | NotFound | PaymentGatewayError>
  }
>() {}

export const AdminPaymentAccountsLive = Layer.effect(
  AdminPaymentAccounts,
  Effect.gen(function* () {
    const accounts = yield* PaymentAccountRepository
    const gateway = yield* ConnectedAccountGateway
    const connected = yield* ConnectedAccounts
    const config = yield* AppConfig
    const tx = yield* Transactional
    const audit = yield* AuditTrail

    /** The user's account at the running gateway, or "create the payment account first". */
    const existing = (user: User) =>
      Effect.flatMap(accounts.findByUser(user.id), (found) =>
        Option.isSome(found) && found.value.gateway === gateway.kind ? Effect.succeed(found.value) : Effect.fail(AccountToCreateFirst)
      )

    const refresh = (account: PaymentAccount) =>
      gateway.retrieveAccount(account.accountId).pipe(
        Effect.flatMap((fresh) => Effect.map(now, (at) => ({ fresh, at }))),
        Effect.tap(({ fresh, at }) =>
          accounts.recordGatewayState(account.accountId, { ...fresh, country: fresh.country || account.country }, at)
        ),
        Effect.map(({ fresh }) => ({ ...account, ...fresh, country: fresh.country || account.country })),
        Effect.catchAll((error) =>
          Effect.as(Effect.logWarning(`payments: status of ${account.accountId} not refreshed (${error.detail})`), account)
        )
      )

    /** A link that opens a provider's payout details (to fill in, or their dashboard) was handed to an admin: who, for whom. */
    const recordPayoutAccess = (
      actor: Actor,
      user: { readonly id: string },
      action: "PAYOUT_ONBOARDING_LINK_CREATED" | "PAYOUT_DASHBOARD_OPENED",
      accountId: string
    ) => audit.record({ actorId: actor.id, action, subject: { type: "USER", id: user.id }, before: null, after: { accountId } })

    return {
      create: (actor, provider, country) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          if (provider.role !== "PROVIDER") return yield* NotAProvider
          return yield* connected.startOnboarding(provider, country ?? ADMIN_DEFAULT_COUNTRY, (created) =>
            audit.record({
              actorId: actor.id,
              action: "PAYMENT_ACCOUNT_CREATED",
              subject: { type: "USER", id: provider.id },
              before: created.replaces === null ? null : { accountId: created.replaces },
              after: { accountId: created.accountId, gateway: gateway.kind, country: created.country }
            })
          )
        }),

      link: (actor, user) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const account = yield* existing(user)
          const accountLink = yield* gateway.createOnboardingLink({
            accountId: account.accountId,
            ...onboardingReturnUrls(config.publicUrl),
            locale: user.preferredLanguage
          })
          yield* recordPayoutAccess(actor, user, "PAYOUT_ONBOARDING_LINK_CREATED", account.accountId)
          return { accountLink }
        }),

      status: (actor, user) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          return statusOf(yield* refresh(yield* existing(user)))
        }),

      dashboard: (actor, user) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const stored = yield* existing(user)
          const account = stored.detailsSubmitted ? stored : yield* refresh(stored)
          if (!account.detailsSubmitted) return yield* PaymentAccountIncomplete
          const dashboardUrl = yield* gateway.createDashboardLink(account.accountId).pipe(
            Effect.catchIf(
              (error) => error.isMissing,
              () => AccountToCreateFirst
            )
          )
          yield* recordPayoutAccess(actor, user, "PAYOUT_DASHBOARD_OPENED", account.accountId)
          return { dashboardUrl }
        }),

      remove: (actor, user) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const stored = yield* accounts.findByUser(user.id)
          if (Option.isNone(stored)) return yield* NoAccountToDelete
          // An account of another gateway (a demo left over) or already closed there is only forgotten.
          if (stored.value.gateway === gateway.kind) {
            yield* gateway.deleteAccount(stored.value.accountId).pipe(
              Effect.catchIf(
                (error) => error.isMissing,
                () => Effect.void
              )
            )
          }
          const { accountId, country } = stored.value
          yield* tx.run(
            Effect.zipRight(
              accounts.remove(user.id),
              audit.record({
                actorId: actor.id,
                action: "PAYMENT_ACCOUNT_DELETED",
                subject: { type: "USER", id: user.id },
                before: { accountId, gateway: stored.value.gateway, country },
                after: null
              })
            )
          )
          return stored.value
        })
    }
  })
)
