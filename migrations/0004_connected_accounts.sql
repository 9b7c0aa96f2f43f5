-- Connected accounts, part 2 (payments module).

-- The moment the stored flags of a payment account describe (a gateway read, or the `created` time of
-- the webhook event that set them): an `account.updated` event older than it is recorded but not applied.
ALTER TABLE payment_accounts ADD COLUMN flags_as_of timestamptz;

-- The sandbox gateway's own side: what Stripe would hold for an Express account. Kept apart from
-- payment_accounts (the marketplace's copy) so that the webhook and the status refresh do real work
-- offline, exactly as they do against Stripe. No foreign key: it plays a remote system.
CREATE TABLE sandbox_accounts (
  id text PRIMARY KEY,
  user_id uuid NOT NULL,
  email text NOT NULL,
  country char(2) NOT NULL,
  charges_enabled boolean NOT NULL DEFAULT false,
  payouts_enabled boolean NOT NULL DEFAULT false,
  details_submitted boolean NOT NULL DEFAULT false,
  -- Same contract as Stripe's Idempotency-Key: a repeated creation answers the first account.
  idempotency_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_accounts_user_id ON sandbox_accounts (user_id);
