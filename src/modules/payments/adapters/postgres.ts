import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, single } from "../../../platform/rows"
import type { PaymentAccount } from "../domain"
import { RefundStatuses } from "../rules"
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

// Rows as decoded (camelCase keys, int8 amounts as numbers: see platform/database.ts). `satisfies`: a
// schema decodes exactly its port's type (a field or literal added to one and not the other fails the type check).
const PaymentAccountRow = Schema.Struct({
  userId: Schema.String,
  gateway: Schema.Literal("stripe", "sandbox"),
  accountId: Schema.String,
  country: Schema.String,
  chargesEnabled: Schema.Boolean,
  payoutsEnabled: Schema.Boolean,
  detailsSubmitted: Schema.Boolean,
  requirementsDue: Schema.Array(Schema.String),
  disabledReason: Schema.NullOr(Schema.String)
}) satisfies Schema.Schema<PaymentAccount, any>
const SandboxAccountRow = Schema.Struct({
  accountId: Schema.String,
  userId: Schema.String,
  email: Schema.String,
  country: Schema.String,
  chargesEnabled: Schema.Boolean,
  payoutsEnabled: Schema.Boolean,
  detailsSubmitted: Schema.Boolean
}) satisfies Schema.Schema<SandboxAccount, any>
const IdempotencyKeyRow = Schema.Struct({ fingerprint: Schema.String, response: Schema.Unknown })
const CheckoutSessionRow = Schema.Struct({
  id: Schema.String,
  mode: Schema.Literal("payment", "setup"),
  bookingId: Schema.String,
  amountMinor: Schema.Number,
  currency: Schema.String,
  productName: Schema.String,
  destinationAccountId: Schema.String,
  applicationFeeMinor: Schema.Number,
  customerEmail: Schema.String,
  cardholderName: Schema.NullOr(Schema.String),
  successUrl: Schema.String,
  cancelUrl: Schema.String,
  status: Schema.Literal("open", "complete"),
  expiresAt: Schema.DateFromSelf,
  customerId: Schema.NullOr(Schema.String),
  paymentIntentId: Schema.NullOr(Schema.String),
  setupIntentId: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<SandboxCheckoutSession, any>
const PaymentIntentRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  amountMinor: Schema.Number,
  currency: Schema.String,
  status: Schema.Literal("requires_payment_method", "requires_action", "requires_capture", "succeeded", "canceled"),
  amountCapturable: Schema.Number,
  amountReceived: Schema.Number,
  amountRefunded: Schema.Number,
  applicationFeeMinor: Schema.Number,
  destinationAccountId: Schema.String,
  customerId: Schema.NullOr(Schema.String),
  paymentMethodId: Schema.NullOr(Schema.String),
  chargeId: Schema.NullOr(Schema.String),
  captureBefore: Schema.NullOr(Schema.DateFromSelf),
  offSession: Schema.Boolean,
  extendedAuthorization: Schema.NullOr(Schema.Literal("enabled", "disabled")),
  lastErrorCode: Schema.NullOr(Schema.String),
  lastDeclineCode: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<SandboxPaymentIntent, any>
const SetupIntentRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  status: Schema.Literal("requires_payment_method", "requires_action", "succeeded", "canceled"),
  customerId: Schema.NullOr(Schema.String),
  paymentMethodId: Schema.NullOr(Schema.String),
  lastErrorCode: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<SandboxSetupIntent, any>
const RefundRow = Schema.Struct({
  id: Schema.String,
  paymentIntentId: Schema.String,
  amountMinor: Schema.Number,
  status: Schema.Literal(...RefundStatuses),
  failureReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<SandboxRefund, any>
const PaymentMethodRow = Schema.Struct({
  id: Schema.String,
  customerId: Schema.NullOr(Schema.String),
  brand: Schema.String,
  last4: Schema.String,
  expMonth: Schema.Number,
  expYear: Schema.Number,
  behaviour: Schema.Literal("succeeds", "declines", "authenticates", "refund_fails")
}) satisfies Schema.Schema<SandboxPaymentMethod, any>
const AttemptRow = Schema.Struct({ attempt: Schema.Number })

const columns = (sql: SqlClient.SqlClient) => sql`
  user_id, gateway, account_id, country, charges_enabled, payouts_enabled, details_submitted, requirements_due, disabled_reason`

export const PaymentAccountRepositoryLive = Layer.effect(
  PaymentAccountRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const findByAccountId = (accountId: string) =>
      findOne(
        "payment account by account id",
        PaymentAccountRow,
        sql`SELECT ${columns(sql)} FROM payment_accounts WHERE account_id = ${accountId}`
      ).pipe(Effect.orDie)
    return {
      findByUser: (userId) =>
        findOne("payment account", PaymentAccountRow, sql`SELECT ${columns(sql)} FROM payment_accounts WHERE user_id = ${userId}`).pipe(
          Effect.orDie
        ),
      findByAccountId,
      remove: (userId) =>
        findOne(
          "removed payment account",
          PaymentAccountRow,
          sql`DELETE FROM payment_accounts WHERE user_id = ${userId} RETURNING ${columns(sql)}`
        ).pipe(Effect.orDie),
      upsert: (a) =>
        sql`INSERT INTO payment_accounts (user_id, gateway, account_id, country, charges_enabled, payouts_enabled, details_submitted,
              requirements_due, disabled_reason, flags_as_of)
            VALUES (${a.userId}, ${a.gateway}, ${a.accountId}, ${a.country}, ${a.chargesEnabled}, ${a.payoutsEnabled}, ${a.detailsSubmitted},
              ${[...a.requirementsDue]}::text[], ${a.disabledReason}, now())
            ON CONFLICT (user_id) DO UPDATE SET gateway = EXCLUDED.gateway, account_id = EXCLUDED.account_id, country = EXCLUDED.country,
              charges_enabled = EXCLUDED.charges_enabled, payouts_enabled = EXCLUDED.payouts_enabled,
              details_submitted = EXCLUDED.details_submitted, requirements_due = EXCLUDED.requirements_due,
              disabled_reason = EXCLUDED.disabled_reason, flags_as_of = EXCLUDED.flags_as_of, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // The WHERE clause is `supersedes` of the domain: a state from an earlier second than the stored one loses.
      recordGatewayState: (accountId, s, observedAt) =>
        Effect.gen(function* () {
          const updated = yield* findOne(
            "payment account state",
            PaymentAccountRow,
            sql`UPDATE payment_accounts
              SET country = ${s.country}, charges_enabled = ${s.chargesEnabled}, payouts_enabled = ${s.payoutsEnabled},
                  details_submitted = ${s.detailsSubmitted}, requirements_due = ${[...s.requirementsDue]}::text[],
                  disabled_reason = ${s.disabledReason}, flags_as_of = ${observedAt}, updated_at = now()
              WHERE account_id = ${accountId} AND (flags_as_of IS NULL OR date_trunc('second', flags_as_of) <= ${observedAt})
              RETURNING ${columns(sql)}`
          ).pipe(Effect.orDie)
          if (Option.isSome(updated)) return Option.some({ account: updated.value, applied: true })
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
  id AS account_id, user_id, email, country, charges_enabled, payouts_enabled, details_submitted`

export const SandboxAccountStoreLive = Layer.effect(
  SandboxAccountStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    return {
      create: (a, key) =>
        Effect.gen(function* () {
          const inserted = yield* findOne(
            "new sandbox account",
            SandboxAccountRow,
            sql`INSERT INTO sandbox_accounts (id, user_id, email, country, idempotency_key)
              VALUES (${a.accountId}, ${a.userId}, ${a.email}, ${a.country}, ${key})
              ON CONFLICT (idempotency_key) DO NOTHING RETURNING ${sandboxColumns(sql)}`
          )
          if (Option.isSome(inserted)) return inserted.value
          return yield* single(
            "sandbox account of a key",
            SandboxAccountRow,
            sql`SELECT ${sandboxColumns(sql)} FROM sandbox_accounts WHERE idempotency_key = ${key}`
          )
        }).pipe(Effect.orDie),
      find: (id) =>
        findOne("sandbox account", SandboxAccountRow, sql`SELECT ${sandboxColumns(sql)} FROM sandbox_accounts WHERE id = ${id}`).pipe(
          Effect.orDie
        ),
      setFlags: (id, f) =>
        findOne(
          "sandbox account flags",
          SandboxAccountRow,
          sql`UPDATE sandbox_accounts
            SET charges_enabled = ${f.chargesEnabled}, payouts_enabled = ${f.payoutsEnabled}, details_submitted = ${f.detailsSubmitted}, updated_at = now()
            WHERE id = ${id} RETURNING ${sandboxColumns(sql)}`
        ).pipe(Effect.orDie),
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
    const sessionColumns = sql.unsafe(`s.id, s.mode, s.booking_id, s.amount_minor, s.currency, s.product_name, s.destination_account_id,
      s.application_fee_minor, s.customer_email, s.cardholder_name, s.success_url, s.cancel_url, s.status, s.expires_at,
      s.customer_id, s.payment_intent_id, s.setup_intent_id, s.created_at`)
    const intentColumns = sql.unsafe(`id, booking_id, amount_minor, currency, status, amount_capturable, amount_received, amount_refunded,
      application_fee_minor, destination_account_id, customer_id, payment_method_id, charge_id, capture_before, off_session,
      extended_authorization, last_error_code, last_decline_code, created_at`)
    return {
      claimKey: (key, fingerprint) =>
        Effect.gen(function* () {
          // A concurrent first request holds the new row until it commits; this insert waits for it.
          const inserted = yield* sql`INSERT INTO sandbox_idempotency_keys (key, fingerprint) VALUES (${key}, ${fingerprint})
              ON CONFLICT (key) DO NOTHING RETURNING key`
          if (inserted.length === 1) return { _tag: "First" } as const
          const stored = yield* single(
            "idempotency key",
            IdempotencyKeyRow,
            sql`SELECT fingerprint, response FROM sandbox_idempotency_keys WHERE key = ${key}`
          )
          return stored.response === null
            ? ({ _tag: "InFlight" } as const)
            : ({ _tag: "Replay", fingerprint: stored.fingerprint, response: stored.response } as const)
        }).pipe(Effect.orDie),
      saveResponse: (key, response) =>
        sql`UPDATE sandbox_idempotency_keys SET response = ${JSON.stringify(response)}::jsonb WHERE key = ${key}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      saveSession: (session) => save("sandbox_checkout_sessions", session),
      // find*: rows are locked until the end of the caller's transaction (the sandbox's operations on one object are serialised).
      findSession: (id) =>
        findOne(
          "sandbox checkout session",
          CheckoutSessionRow,
          sql`SELECT ${sessionColumns} FROM sandbox_checkout_sessions s WHERE s.id = ${id} FOR UPDATE`
        ).pipe(Effect.orDie),
      saveIntent: (intent) => save("sandbox_payment_intents", intent),
      findIntent: (id) =>
        findOne(
          "sandbox payment intent",
          PaymentIntentRow,
          sql`SELECT ${intentColumns} FROM sandbox_payment_intents WHERE id = ${id} FOR UPDATE`
        ).pipe(Effect.orDie),
      saveSetupIntent: (intent) => save("sandbox_setup_intents", intent),
      findSetupIntent: (id) =>
        findOne(
          "sandbox setup intent",
          SetupIntentRow,
          sql`SELECT id, booking_id, status, customer_id, payment_method_id, last_error_code, created_at
          FROM sandbox_setup_intents WHERE id = ${id} FOR UPDATE`
        ).pipe(Effect.orDie),
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
        findOne(
          "sandbox payment method",
          PaymentMethodRow,
          sql`SELECT id, customer_id, brand, last4, exp_month, exp_year, behaviour
          FROM sandbox_payment_methods WHERE id = ${id} FOR UPDATE`
        ).pipe(Effect.orDie),
      saveRefund: (refund) => save("sandbox_refunds", refund),
      findRefund: (id) =>
        findOne(
          "sandbox refund",
          RefundRow,
          sql`SELECT id, payment_intent_id, amount_minor, status, failure_reason, created_at FROM sandbox_refunds WHERE id = ${id} FOR UPDATE`
        ).pipe(Effect.orDie),
      listRefunds: (paymentIntentId) =>
        findAll(
          "sandbox refunds",
          RefundRow,
          sql`SELECT id, payment_intent_id, amount_minor, status, failure_reason, created_at FROM sandbox_refunds
            WHERE payment_intent_id = ${paymentIntentId} ORDER BY created_at, id`
        ).pipe(Effect.orDie),
      listIntents: (status, createdAfter) =>
        findAll(
          "sandbox payment intents",
          PaymentIntentRow,
          sql`SELECT ${intentColumns}
          FROM sandbox_payment_intents WHERE status = ${status} AND created_at >= ${createdAfter} ORDER BY created_at`
        ).pipe(Effect.orDie),
      listCompletedSessions: (createdAfter) =>
        findAll(
          "completed sandbox checkout sessions",
          Schema.extend(CheckoutSessionRow, Schema.Struct({ setupPaymentMethodId: Schema.NullOr(Schema.String) })),
          sql`SELECT ${sessionColumns}, si.payment_method_id AS setup_payment_method_id
          FROM sandbox_checkout_sessions s LEFT JOIN sandbox_setup_intents si ON si.id = s.setup_intent_id
          WHERE s.status = 'complete' AND s.created_at >= ${createdAfter} ORDER BY s.created_at`
        ).pipe(Effect.orDie)
    }
  })
)

export const GatewayAttemptsLive = Layer.effect(
  GatewayAttempts,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    current: (key) =>
      findOne("gateway attempt", AttemptRow, sql`SELECT attempt FROM payment_gateway_attempts WHERE key = ${key}`).pipe(
        Effect.map(Option.match({ onNone: () => 0, onSome: (row) => row.attempt })),
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
