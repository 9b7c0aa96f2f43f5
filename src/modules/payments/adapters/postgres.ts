import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { PaymentAccount } from "../domain"
import { PaymentAccountRepository, type SandboxAccount, SandboxAccountStore, WebhookEventStore } from "../ports"

const columns = (sql: SqlClient.SqlClient) => sql`
  user_id AS "userId", gateway, account_id AS "accountId", country, charges_enabled AS "chargesEnabled",
  payouts_enabled AS "payoutsEnabled", details_submitted AS "detailsSubmitted"`

export const PaymentAccountRepositoryLive = Layer.effect(
  PaymentAccountRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const findByAccountId = (accountId: string) =>
      sql<PaymentAccount>`SELECT ${columns(sql)} FROM payment_accounts WHERE account_id = ${accountId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )
    return {
      findByUser: (userId) =>
        sql<PaymentAccount>`SELECT ${columns(sql)} FROM payment_accounts WHERE user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      findByAccountId,
      upsert: (a) =>
        sql`INSERT INTO payment_accounts (user_id, gateway, account_id, country, charges_enabled, payouts_enabled, details_submitted, flags_as_of)
            VALUES (${a.userId}, ${a.gateway}, ${a.accountId}, ${a.country}, ${a.chargesEnabled}, ${a.payoutsEnabled}, ${a.detailsSubmitted}, now())
            ON CONFLICT (user_id) DO UPDATE SET gateway = EXCLUDED.gateway, account_id = EXCLUDED.account_id, country = EXCLUDED.country,
              charges_enabled = EXCLUDED.charges_enabled, payouts_enabled = EXCLUDED.payouts_enabled,
              details_submitted = EXCLUDED.details_submitted, flags_as_of = EXCLUDED.flags_as_of, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // The WHERE clause is `supersedes` of the domain: a state from an earlier second than the stored one loses.
      recordGatewayState: (accountId, s, observedAt) =>
        Effect.gen(function*() {
          const updated = yield* sql<PaymentAccount>`UPDATE payment_accounts
              SET country = ${s.country}, charges_enabled = ${s.chargesEnabled}, payouts_enabled = ${s.payoutsEnabled},
                  details_submitted = ${s.detailsSubmitted}, flags_as_of = ${observedAt}, updated_at = now()
              WHERE account_id = ${accountId} AND (flags_as_of IS NULL OR date_trunc('second', flags_as_of) <= ${observedAt})
              RETURNING ${columns(sql)}`.pipe(Effect.orDie)
          if (updated[0]) return Option.some({ account: updated[0], applied: true })
          return Option.map(yield* findByAccountId(accountId), (account) => ({ account, applied: false }))
        })
    }
  })
)

export const WebhookEventStoreLive = Layer.effect(
  WebhookEventStore,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    markProcessed: (id, type) =>
      sql`INSERT INTO webhook_events (id, type) VALUES (${id}, ${type}) ON CONFLICT (id) DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      )
  }))
)

const sandboxColumns = (sql: SqlClient.SqlClient) => sql`
  id AS "accountId", user_id AS "userId", email, country, charges_enabled AS "chargesEnabled",
  payouts_enabled AS "payoutsEnabled", details_submitted AS "detailsSubmitted"`

export const SandboxAccountStoreLive = Layer.effect(
  SandboxAccountStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const one = (rows: ReadonlyArray<SandboxAccount>) => Option.fromNullable(rows[0])
    return {
      create: (a, key) =>
        Effect.gen(function*() {
          const inserted = yield* sql<SandboxAccount>`INSERT INTO sandbox_accounts (id, user_id, email, country, idempotency_key)
              VALUES (${a.accountId}, ${a.userId}, ${a.email}, ${a.country}, ${key})
              ON CONFLICT (idempotency_key) DO NOTHING RETURNING ${sandboxColumns(sql)}`
          if (inserted[0]) return inserted[0]
          const existing = yield* sql<SandboxAccount>`SELECT ${sandboxColumns(sql)} FROM sandbox_accounts WHERE idempotency_key = ${key}`
          return existing[0]!
        }).pipe(Effect.orDie),
      find: (id) => sql<SandboxAccount>`SELECT ${sandboxColumns(sql)} FROM sandbox_accounts WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      setFlags: (id, f) =>
        sql<SandboxAccount>`UPDATE sandbox_accounts
            SET charges_enabled = ${f.chargesEnabled}, payouts_enabled = ${f.payoutsEnabled}, details_submitted = ${f.detailsSubmitted}, updated_at = now()
            WHERE id = ${id} RETURNING ${sandboxColumns(sql)}`.pipe(Effect.map(one), Effect.orDie)
    }
  })
)

export const PaymentsPostgresAdapters = Layer.mergeAll(PaymentAccountRepositoryLive, WebhookEventStoreLive, SandboxAccountStoreLive)
