import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { PaymentAccount } from "../domain"
import { PaymentAccountRepository } from "../ports"

const columns = (sql: SqlClient.SqlClient) => sql`
  user_id AS "userId", gateway, account_id AS "accountId", country, charges_enabled AS "chargesEnabled",
  payouts_enabled AS "payoutsEnabled", details_submitted AS "detailsSubmitted"`

export const PaymentAccountRepositoryLive = Layer.effect(
  PaymentAccountRepository,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    findByUser: (userId) =>
      sql<PaymentAccount>`SELECT ${columns(sql)} FROM payment_accounts WHERE user_id = ${userId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      ),
    findByAccountId: (accountId) =>
      sql<PaymentAccount>`SELECT ${columns(sql)} FROM payment_accounts WHERE account_id = ${accountId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      ),
    upsert: (a) =>
      sql`INSERT INTO payment_accounts (user_id, gateway, account_id, country, charges_enabled, payouts_enabled, details_submitted)
          VALUES (${a.userId}, ${a.gateway}, ${a.accountId}, ${a.country}, ${a.chargesEnabled}, ${a.payoutsEnabled}, ${a.detailsSubmitted})
          ON CONFLICT (user_id) DO UPDATE SET gateway = EXCLUDED.gateway, account_id = EXCLUDED.account_id, country = EXCLUDED.country,
            charges_enabled = EXCLUDED.charges_enabled, payouts_enabled = EXCLUDED.payouts_enabled,
            details_submitted = EXCLUDED.details_submitted, updated_at = now()`.pipe(Effect.asVoid, Effect.orDie)
  }))
)
