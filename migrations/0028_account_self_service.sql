-- Account self-service on /settings (issue 15, item 3): sessions, email change, data export, deletion.

-- Each session (a refresh family) remembers what opened or last renewed it: the browser's user agent
-- and the coarse form of its address (an IPv4 /24 or IPv6 /48, never the full address). Every
-- rotation inserts a row, so a family's last use is its newest row.
ALTER TABLE refresh_tokens
  ADD COLUMN user_agent text CHECK (char_length(user_agent) <= 512),
  ADD COLUMN coarse_address text CHECK (char_length(coarse_address) <= 64);

-- An email change is proven by a link mailed to the new address; the address waits on its token.
ALTER TABLE one_time_tokens DROP CONSTRAINT one_time_tokens_purpose_check;
ALTER TABLE one_time_tokens
  ADD CONSTRAINT one_time_tokens_purpose_check CHECK (purpose IN ('VERIFY_EMAIL', 'RESET_PASSWORD', 'CHANGE_EMAIL')),
  ADD COLUMN new_email citext,
  ADD CONSTRAINT one_time_tokens_new_email_check CHECK ((purpose = 'CHANGE_EMAIL') = (new_email IS NOT NULL));

-- A deleted account: its row stays (bookings, payments and reviews point at it) with no personal data.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- A user's data export: prepared by a job, downloaded through a mailed link until it expires.
CREATE TABLE data_exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  archive jsonb,
  requested_at timestamptz NOT NULL DEFAULT now(),
  ready_at timestamptz,
  expires_at timestamptz NOT NULL
);
CREATE INDEX data_exports_user_idx ON data_exports (user_id, requested_at DESC);
