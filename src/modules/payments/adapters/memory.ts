import { Effect, Layer, Option } from "effect"
import type { PaymentAccount } from "../domain"
import { PaymentAccountRepository } from "../ports"

export const PaymentsMemoryAdapters = Layer.sync(PaymentAccountRepository, () => {
  const accounts = new Map<string, PaymentAccount>()
  return {
    findByUser: (userId) => Effect.sync(() => Option.fromNullable(accounts.get(userId))),
    findByAccountId: (accountId) => Effect.sync(() => Option.fromNullable([...accounts.values()].find((a) => a.accountId === accountId))),
    upsert: (account) => Effect.sync(() => void accounts.set(account.userId, account))
  }
})
