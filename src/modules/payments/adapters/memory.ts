import { Effect, Layer, Option } from "effect"
import { type PaymentAccount, supersedes } from "../domain"
import { PaymentAccountRepository, type SandboxAccount, SandboxAccountStore, WebhookEventStore } from "../ports"

/** In-memory stores with the contracts of the PostgreSQL ones (domain tests, experiments). */
export const PaymentsMemoryAdapters = Layer.suspend(() => {
  const accounts = new Map<string, { account: PaymentAccount; asOf: Date | null }>()
  const events = new Set<string>()
  const sandbox = new Map<string, SandboxAccount>()
  const sandboxKeys = new Map<string, string>()
  const byAccountId = (accountId: string) => [...accounts.values()].find((entry) => entry.account.accountId === accountId)

  return Layer.mergeAll(
    Layer.succeed(PaymentAccountRepository, {
      findByUser: (userId) => Effect.sync(() => Option.fromNullable(accounts.get(userId)?.account)),
      findByAccountId: (accountId) => Effect.sync(() => Option.fromNullable(byAccountId(accountId)?.account)),
      upsert: (account) => Effect.sync(() => void accounts.set(account.userId, { account, asOf: new Date() })),
      recordGatewayState: (accountId, state, observedAt) =>
        Effect.sync(() => {
          const entry = byAccountId(accountId)
          if (!entry) return Option.none()
          if (!supersedes(observedAt, entry.asOf)) return Option.some({ account: entry.account, applied: false })
          const account = { ...entry.account, ...state }
          accounts.set(account.userId, { account, asOf: observedAt })
          return Option.some({ account, applied: true })
        })
    }),
    Layer.succeed(WebhookEventStore, {
      markProcessed: (id) =>
        Effect.sync(() => {
          if (events.has(id)) return false
          events.add(id)
          return true
        })
    }),
    Layer.succeed(SandboxAccountStore, {
      create: (a, key) =>
        Effect.sync(() => {
          const existing = sandboxKeys.get(key)
          if (existing) return sandbox.get(existing)!
          const account = { ...a, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false }
          sandbox.set(a.accountId, account)
          sandboxKeys.set(key, a.accountId)
          return account
        }),
      find: (id) => Effect.sync(() => Option.fromNullable(sandbox.get(id))),
      setFlags: (id, flags) =>
        Effect.sync(() => {
          const account = sandbox.get(id)
          if (!account) return Option.none()
          const updated = { ...account, ...flags }
          sandbox.set(id, updated)
          return Option.some(updated)
        })
    })
  )
})
