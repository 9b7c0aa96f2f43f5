-- Notification preferences (one row per account; no row means the defaults).
CREATE TABLE notification_preferences (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  email_notifications boolean NOT NULL DEFAULT true,
  email_frequency text NOT NULL DEFAULT 'instant' CHECK (email_frequency IN ('instant', 'daily', 'weekly', 'never')),
  quiet_hours_enabled boolean NOT NULL DEFAULT false,
  quiet_hours_start text NOT NULL DEFAULT '22:00' CHECK (quiet_hours_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  quiet_hours_end text NOT NULL DEFAULT '08:00' CHECK (quiet_hours_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_zone text NOT NULL DEFAULT 'Europe/Paris',
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (quiet_hours_start <> quiet_hours_end)
);

-- Non-essential mails waiting for the recipient's daily or weekly digest; sent_at marks them taken.
CREATE TABLE notification_digest_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  link text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX notification_digest_items_pending_idx ON notification_digest_items (user_id, created_at) WHERE sent_at IS NULL;

-- Mails the recipient's preferences stopped (never, or notifications off): kept, not silently lost.
CREATE TABLE mail_suppressions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  recipient text NOT NULL,
  kind text NOT NULL,
  subject text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('never', 'disabled')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_suppressions_user_idx ON mail_suppressions (user_id, created_at DESC);
