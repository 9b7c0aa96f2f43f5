-- The sandbox gateway's card payments (payments module, PAYMENTS_MODE=sandbox): what Stripe would hold
-- for Checkout Sessions, PaymentIntents, SetupIntents, customers, saved cards and refunds. Like
-- sandbox_accounts it plays a remote system: no foreign keys to the marketplace's tables, and the
-- booking keeps its own copy of what matters (bookings, payment_operations).

CREATE TABLE sandbox_customers (
  id text PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_payment_methods (
  id text PRIMARY KEY,
  -- Set once the card is saved to a customer (usable off-session).
  customer_id text REFERENCES sandbox_customers(id),
  brand text NOT NULL,
  last4 char(4) NOT NULL,
  exp_month smallint NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
  exp_year smallint NOT NULL,
  -- What the test card does when used (Stripe's test cards: 4242 succeeds, 0002 declines, 3184 authenticates).
  behaviour text NOT NULL CHECK (behaviour IN ('succeeds', 'declines', 'authenticates')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_payment_intents (
  id text PRIMARY KEY,
  booking_id text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency char(3) NOT NULL,
  status text NOT NULL CHECK (status IN ('requires_payment_method', 'requires_action', 'requires_capture', 'succeeded', 'canceled')),
  amount_capturable bigint NOT NULL DEFAULT 0 CHECK (amount_capturable >= 0),
  amount_received bigint NOT NULL DEFAULT 0 CHECK (amount_received >= 0),
  amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0),
  application_fee_minor bigint NOT NULL CHECK (application_fee_minor >= 0),
  destination_account_id text NOT NULL,
  customer_id text,
  payment_method_id text REFERENCES sandbox_payment_methods(id),
  charge_id text UNIQUE,
  capture_before timestamptz,
  last_error_code text,
  last_decline_code text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Stripe's money rules hold here too.
  CHECK (amount_capturable <= amount_minor),
  CHECK (amount_received <= amount_minor),
  CHECK (amount_refunded <= amount_received),
  CHECK (status = 'requires_capture' OR amount_capturable = 0),
  CHECK (status = 'succeeded' OR amount_received = 0)
);
CREATE INDEX sandbox_payment_intents_booking_idx ON sandbox_payment_intents (booking_id);

CREATE TABLE sandbox_setup_intents (
  id text PRIMARY KEY,
  booking_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('requires_payment_method', 'requires_action', 'succeeded', 'canceled')),
  customer_id text,
  payment_method_id text REFERENCES sandbox_payment_methods(id),
  last_error_code text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_checkout_sessions (
  id text PRIMARY KEY,
  mode text NOT NULL CHECK (mode IN ('payment', 'setup')),
  booking_id text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
  currency char(3) NOT NULL,
  product_name text NOT NULL,
  destination_account_id text NOT NULL,
  application_fee_minor bigint NOT NULL CHECK (application_fee_minor >= 0),
  customer_email text NOT NULL,
  cardholder_name text,
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'complete')),
  expires_at timestamptz NOT NULL,
  customer_id text,
  payment_intent_id text REFERENCES sandbox_payment_intents(id),
  setup_intent_id text REFERENCES sandbox_setup_intents(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_refunds (
  id text PRIMARY KEY,
  payment_intent_id text NOT NULL REFERENCES sandbox_payment_intents(id),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  created_at timestamptz NOT NULL
);
CREATE INDEX sandbox_refunds_payment_intent_idx ON sandbox_refunds (payment_intent_id);

-- Stripe's Idempotency-Key: the first request's answer (success or refusal) is replayed to any later
-- request with the same key; `fingerprint` (operation and parameters) must match.
CREATE TABLE sandbox_idempotency_keys (
  key text PRIMARY KEY,
  fingerprint text NOT NULL,
  -- NULL only while the first request runs (inside its transaction, so never seen by others).
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
