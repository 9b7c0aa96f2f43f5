-- The attempt each named gateway write is at (payments module, src/modules/payments/idempotency.ts):
-- a write the gateway answered with an error is retried under a new idempotency key (Stripe replays a
-- stored error for 24 hours under the old one). A write with no row is at attempt 0.
CREATE TABLE payment_gateway_attempts (
  key text PRIMARY KEY,
  attempt integer NOT NULL CHECK (attempt > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
