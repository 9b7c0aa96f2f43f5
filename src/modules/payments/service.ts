import { Context, Effect, Layer, Option } from "effect"
import { canTakeCharges, type PaymentAccount } from "./domain"
import { PaymentAccountRepository } from "./ports"

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
  Effect.map(PaymentAccountRepository, (accounts) => ({
    accountOf: accounts.findByUser,
    canTakeCharges: (userId) => Effect.map(accounts.findByUser(userId), (a) => canTakeCharges(Option.getOrUndefined(a)))
  }))
)
