import { Effect, Layer, Option } from "effect"
import { PayoutAccountLookup } from "../../identity"
import { PaymentAccounts } from "../../payments"

/**
 * Identity's "activate payments" state on the own profile, answered by the payments module (the
 * provider's connected account as PAYMENTS_MODE counts it). Lives here, with the rest of becoming a
 * provider, so that identity does not depend on payments.
 */
export const PayoutAccountLookupFromPayments = Layer.effect(
  PayoutAccountLookup,
  Effect.map(PaymentAccounts, (accounts) => ({
    of: (userId: string) =>
      Effect.map(
        accounts.accountOf(userId),
        Option.map((a) => ({
          accountId: a.accountId,
          chargesEnabled: a.chargesEnabled,
          payoutsEnabled: a.payoutsEnabled,
          detailsSubmitted: a.detailsSubmitted
        }))
      )
  }))
)
