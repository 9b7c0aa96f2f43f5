import { Effect, Layer, Option } from "effect"
import { type PaymentAccount, supersedes } from "../domain"
import {
  PaymentAccountRepository,
  type SandboxAccount,
  SandboxAccountStore,
  SandboxChargeStore,
  type SandboxCheckoutSession,
  type SandboxPaymentIntent,
  type SandboxPaymentMethod,
  type SandboxRefund,
  type SandboxSetupIntent,
  GatewayAttempts,
  WebhookEventStore
} from "../ports"

/** In-memory stores with the contracts of the PostgreSQL ones (domain tests, experiments). */
export const PaymentsMemoryAdapters = Layer.suspend(() => {
  const accounts = new Map<string, { account: PaymentAccount; asOf: Date | null }>()
  const events = new Set<string>()
  const sandbox = new Map<string, SandboxAccount>()
  const sandboxKeys = new Map<string, string>()
  const charges = {
    keys: new Map<string, { fingerprint: string; response: unknown }>(),
    sessions: new Map<string, SandboxCheckoutSession>(),
    intents: new Map<string, SandboxPaymentIntent>(),
    setupIntents: new Map<string, SandboxSetupIntent>(),
    customers: new Map<string, { id: string; email: string }>(),
    methods: new Map<string, SandboxPaymentMethod>(),
    refunds: new Map<string, SandboxRefund>()
  }
  const put =
    <A extends { readonly id: string }>(map: Map<string, A>) =>
    (record: A) =>
      Effect.sync(() => void map.set(record.id, record))
  const get =
    <A>(map: Map<string, A>) =>
    (id: string) =>
      Effect.sync(() => Option.fromNullable(map.get(id)))
  const attempts = new Map<string, number>()
  const byAccountId = (accountId: string) => [...accounts.values()].find((entry) => entry.account.accountId === accountId)

  return Layer.mergeAll(
    Layer.succeed(PaymentAccountRepository, {
      findByUser: (userId) => Effect.sync(() => Option.fromNullable(accounts.get(userId)?.account)),
      findByAccountId: (accountId) => Effect.sync(() => Option.fromNullable(byAccountId(accountId)?.account)),
      upsert: (account) => Effect.sync(() => void accounts.set(account.userId, { account, asOf: new Date() })),
      remove: (userId) =>
        Effect.sync(() => {
          const entry = accounts.get(userId)
          accounts.delete(userId)
          return Option.fromNullable(entry?.account)
        }),
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
    Layer.succeed(SandboxChargeStore, {
      claimKey: (key, fingerprint) =>
        Effect.sync(() => {
          const stored = charges.keys.get(key)
          if (!stored) {
            charges.keys.set(key, { fingerprint, response: undefined })
            return { _tag: "First" } as const
          }
          // JSON round trip, as the database stores it.
          return stored.response === undefined
            ? ({ _tag: "InFlight" } as const)
            : ({ _tag: "Replay", fingerprint: stored.fingerprint, response: JSON.parse(JSON.stringify(stored.response)) } as const)
        }),
      saveResponse: (key, response) =>
        Effect.sync(() => void charges.keys.set(key, { fingerprint: charges.keys.get(key)?.fingerprint ?? "", response })),
      saveSession: put(charges.sessions),
      findSession: get(charges.sessions),
      saveIntent: put(charges.intents),
      findIntent: get(charges.intents),
      saveSetupIntent: put(charges.setupIntents),
      findSetupIntent: get(charges.setupIntents),
      saveCustomer: put(charges.customers),
      customerExists: (id) => Effect.sync(() => charges.customers.has(id)),
      savePaymentMethod: put(charges.methods),
      findPaymentMethod: get(charges.methods),
      saveRefund: put(charges.refunds),
      findRefund: get(charges.refunds),
      listRefunds: (paymentIntentId) =>
        Effect.sync(() =>
          [...charges.refunds.values()]
            .filter((r) => r.paymentIntentId === paymentIntentId)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        ),
      listIntents: (status, createdAfter) =>
        Effect.sync(() =>
          [...charges.intents.values()].filter((i) => i.status === status && i.createdAt.getTime() >= createdAfter.getTime())
        ),
      listCompletedSessions: (createdAfter) =>
        Effect.sync(() =>
          [...charges.sessions.values()]
            .filter((c) => c.status === "complete" && c.createdAt.getTime() >= createdAfter.getTime())
            .map((c) => ({
              ...c,
              setupPaymentMethodId: (c.setupIntentId ? charges.setupIntents.get(c.setupIntentId)?.paymentMethodId : null) ?? null
            }))
        )
    }),
    Layer.succeed(GatewayAttempts, {
      current: (key) => Effect.sync(() => attempts.get(key) ?? 0),
      advance: (key, attempt) => Effect.sync(() => void attempts.set(key, Math.max(attempts.get(key) ?? 0, attempt + 1)))
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
        }),
      remove: (id) =>
        Effect.sync(() => {
          for (const [key, accountId] of sandboxKeys) if (accountId === id) sandboxKeys.delete(key)
          return sandbox.delete(id)
        })
    })
  )
})
