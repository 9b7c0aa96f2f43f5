import { Context, type Effect, type Option } from "effect"
import type { PaymentAccount } from "./domain"

/** Where connected accounts are recorded (the gateway remains the source of truth for their flags). */
export interface PaymentAccountRepositoryShape {
  readonly findByUser: (userId: string) => Effect.Effect<Option.Option<PaymentAccount>>
  readonly findByAccountId: (accountId: string) => Effect.Effect<Option.Option<PaymentAccount>>
  readonly upsert: (account: PaymentAccount) => Effect.Effect<void>
}
export class PaymentAccountRepository extends Context.Tag("payments/PaymentAccountRepository")<
  PaymentAccountRepository,
  PaymentAccountRepositoryShape
>() {}
