-- Connected (payout) accounts of providers at the payment gateway (Stripe Express, or the local sandbox).
CREATE TABLE payment_accounts (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  gateway text NOT NULL CHECK (gateway IN ('stripe', 'sandbox')),
  account_id text NOT NULL UNIQUE,
  country char(2) NOT NULL,
  charges_enabled boolean NOT NULL DEFAULT false,
  payouts_enabled boolean NOT NULL DEFAULT false,
  details_submitted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Gateway webhook events already processed (idempotency by event id).
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
