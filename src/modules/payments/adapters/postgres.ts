import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { PaymentAccount } from "../domain"
import {
  PaymentAccountRepository,
  type SandboxAccount,
  SandboxAccountStore,
  SandboxChargeStore,
  type SandboxCheckoutSession,
  type SandboxPaymentIntent,
  type SandboxPaymentMethod,
  type SandboxSetupIntent,
  GatewayAttempts,
  WebhookEventStore
} from "../ports"

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
      remove: (userId) =>
        sql<PaymentAccount>`DELETE FROM payment_accounts WHERE user_id = ${userId} RETURNING ${columns(sql)}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
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
        Effect.gen(function* () {
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
        Effect.gen(function* () {
          const inserted = yield* sql<SandboxAccount>`INSERT INTO sandbox_accounts (id, user_id, email, country, idempotency_key)
              VALUES (${a.accountId}, ${a.userId}, ${a.email}, ${a.country}, ${key})
              ON CONFLICT (idempotency_key) DO NOTHING RETURNING ${sandboxColumns(sql)}`
          if (inserted[0]) return inserted[0]
          const existing = yield* sql<SandboxAccount>`SELECT ${sandboxColumns(sql)} FROM sandbox_accounts WHERE idempotency_key = ${key}`
          return existing[0]!
        }).pipe(Effect.orDie),
      find: (id) =>
        sql<SandboxAccount>`SELECT ${sandboxColumns(sql)} FROM sandbox_accounts WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      setFlags: (id, f) =>
        sql<SandboxAccount>`UPDATE sandbox_accounts
            SET charges_enabled = ${f.chargesEnabled}, payouts_enabled = ${f.payoutsEnabled}, details_submitted = ${f.detailsSubmitted}, updated_at = now()
            WHERE id = ${id} RETURNING ${sandboxColumns(sql)}`.pipe(Effect.map(one), Effect.orDie),
      remove: (id) =>
        sql`DELETE FROM sandbox_accounts WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
)

/** camelCase record fields to the snake_case columns of the sandbox tables. */
const toRow = (record: object) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]))

export const SandboxChargeStoreLive = Layer.effect(
  SandboxChargeStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    /** Insert or replace by id (every column is given). */
    const save = (table: string, record: { readonly id: string }) => {
      const row = toRow(record)
      return sql`INSERT INTO ${sql(table)} ${sql.insert(row)} ON CONFLICT (id) DO UPDATE SET ${sql.update(row, ["id"])}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
    }
    // Rows are locked until the end of the caller's transaction: the sandbox's operations on one object are serialised.
    const one = <A extends object>(query: Effect.Effect<ReadonlyArray<A>, unknown>) =>
      query.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )
    return {
      claimKey: (key, fingerprint) =>
        Effect.gen(function* () {
          // A concurrent first request holds the new row until it commits; this insert waits for it.
          const inserted = yield* sql`INSERT INTO sandbox_idempotency_keys (key, fingerprint) VALUES (${key}, ${fingerprint})
              ON CONFLICT (key) DO NOTHING RETURNING key`
          if (inserted.length === 1) return { _tag: "First" } as const
          const [stored] = yield* sql<{
            fingerprint: string
            response: unknown
          }>`SELECT fingerprint, response FROM sandbox_idempotency_keys WHERE key = ${key}`
          return stored!.response === null
            ? ({ _tag: "InFlight" } as const)
            : ({ _tag: "Replay", fingerprint: stored!.fingerprint, response: stored!.response } as const)
        }).pipe(Effect.orDie),
      saveResponse: (key, response) =>
        sql`UPDATE sandbox_idempotency_keys SET response = ${JSON.stringify(response)}::jsonb WHERE key = ${key}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      saveSession: (session) => save("sandbox_checkout_sessions", session),
      findSession: (id) =>
        one(sql<SandboxCheckoutSession>`SELECT id, mode, booking_id AS "bookingId", amount_minor::float8 AS "amountMinor", currency, product_name AS "productName",
            destination_account_id AS "destinationAccountId", application_fee_minor::float8 AS "applicationFeeMinor", customer_email AS "customerEmail",
            cardholder_name AS "cardholderName", success_url AS "successUrl", cancel_url AS "cancelUrl", status, expires_at AS "expiresAt",
            customer_id AS "customerId", payment_intent_id AS "paymentIntentId", setup_intent_id AS "setupIntentId", created_at AS "createdAt"
          FROM sandbox_checkout_sessions WHERE id = ${id} FOR UPDATE`),
      saveIntent: (intent) => save("sandbox_payment_intents", intent),
      findIntent: (id) =>
        one(sql<SandboxPaymentIntent>`SELECT id, booking_id AS "bookingId", amount_minor::float8 AS "amountMinor", currency, status,
            amount_capturable::float8 AS "amountCapturable", amount_received::float8 AS "amountReceived", amount_refunded::float8 AS "amountRefunded",
            application_fee_minor::float8 AS "applicationFeeMinor", destination_account_id AS "destinationAccountId", customer_id AS "customerId",
            payment_method_id AS "paymentMethodId", charge_id AS "chargeId", capture_before AS "captureBefore", last_error_code AS "lastErrorCode",
            last_decline_code AS "lastDeclineCode", created_at AS "createdAt"
          FROM sandbox_payment_intents WHERE id = ${id} FOR UPDATE`),
      saveSetupIntent: (intent) => save("sandbox_setup_intents", intent),
      findSetupIntent: (id) =>
        one(sql<SandboxSetupIntent>`SELECT id, booking_id AS "bookingId", status, customer_id AS "customerId", payment_method_id AS "paymentMethodId",
            last_error_code AS "lastErrorCode", created_at AS "createdAt"
          FROM sandbox_setup_intents WHERE id = ${id} FOR UPDATE`),
      customerExists: (id) =>
        sql`SELECT 1 FROM sandbox_customers WHERE id = ${id}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      saveCustomer: (customer) =>
        sql`INSERT INTO sandbox_customers (id, email) VALUES (${customer.id}, ${customer.email})
            ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email`.pipe(Effect.asVoid, Effect.orDie),
      savePaymentMethod: (method) => save("sandbox_payment_methods", method),
      findPaymentMethod: (id) =>
        one(sql<SandboxPaymentMethod>`SELECT id, customer_id AS "customerId", brand, last4, exp_month AS "expMonth", exp_year AS "expYear", behaviour
          FROM sandbox_payment_methods WHERE id = ${id} FOR UPDATE`),
      saveRefund: (refund) => save("sandbox_refunds", refund),
      listIntents: (status, createdAfter) =>
        sql<SandboxPaymentIntent>`SELECT id, booking_id AS "bookingId", amount_minor::float8 AS "amountMinor", currency, status,
            amount_capturable::float8 AS "amountCapturable", amount_received::float8 AS "amountReceived", amount_refunded::float8 AS "amountRefunded",
            application_fee_minor::float8 AS "applicationFeeMinor", destination_account_id AS "destinationAccountId", customer_id AS "customerId",
            payment_method_id AS "paymentMethodId", charge_id AS "chargeId", capture_before AS "captureBefore", last_error_code AS "lastErrorCode",
            last_decline_code AS "lastDeclineCode", created_at AS "createdAt"
          FROM sandbox_payment_intents WHERE status = ${status} AND created_at >= ${createdAfter} ORDER BY created_at`.pipe(Effect.orDie),
      listCompletedSessions: (createdAfter) =>
        sql<
          SandboxCheckoutSession & { setupPaymentMethodId: string | null }
        >`SELECT s.id, s.mode, s.booking_id AS "bookingId", s.amount_minor::float8 AS "amountMinor",
            s.currency, s.product_name AS "productName", s.destination_account_id AS "destinationAccountId",
            s.application_fee_minor::float8 AS "applicationFeeMinor", s.customer_email AS "customerEmail", s.cardholder_name AS "cardholderName",
            s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.status, s.expires_at AS "expiresAt", s.customer_id AS "customerId",
            s.payment_intent_id AS "paymentIntentId", s.setup_intent_id AS "setupIntentId", s.created_at AS "createdAt",
            si.payment_method_id AS "setupPaymentMethodId"
          FROM sandbox_checkout_sessions s LEFT JOIN sandbox_setup_intents si ON si.id = s.setup_intent_id
          WHERE s.status = 'complete' AND s.created_at >= ${createdAfter} ORDER BY s.created_at`.pipe(Effect.orDie)
    }
  })
)

export const GatewayAttemptsLive = Layer.effect(
  GatewayAttempts,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    current: (key) =>
      sql<{ attempt: number }>`SELECT attempt FROM payment_gateway_attempts WHERE key = ${key}`.pipe(
        Effect.map((rows) => rows[0]?.attempt ?? 0),
        Effect.orDie
      ),
    // Never backwards: two retries of one attempt that both failed move it once.
    advance: (key, attempt) =>
      sql`INSERT INTO payment_gateway_attempts (key, attempt) VALUES (${key}, ${attempt + 1})
          ON CONFLICT (key) DO UPDATE SET attempt = EXCLUDED.attempt, updated_at = now() WHERE payment_gateway_attempts.attempt < EXCLUDED.attempt`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
  }))
)

export const PaymentsPostgresAdapters = Layer.mergeAll(
  PaymentAccountRepositoryLive,
  WebhookEventStoreLive,
  SandboxAccountStoreLive,
  SandboxChargeStoreLive,
  GatewayAttemptsLive
)
