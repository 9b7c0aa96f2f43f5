-- Booking reminders: which reminder went out for which start time. A booking moved to another time
-- has no row for its new start, so its reminders are sent again; the key makes each one go once.
CREATE TABLE booking_reminders (
  booking_id uuid NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('24h', '2h')),
  start_time timestamptz NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (booking_id, kind, start_time)
);

-- Providers' private calendar feeds (GET /api/calendar/{token}.ics). The token is kept as it is, not
-- hashed: the provider's screen shows the subscription URL again on every visit, and it only reads
-- one provider's schedule (regenerating it replaces it).
CREATE TABLE calendar_feeds (
  provider_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token text NOT NULL UNIQUE CHECK (length(token) >= 22),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Mail attachments (the booking's .ics on its confirmation): [{filename, contentType, content}].
ALTER TABLE mail_outbox ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb;

-- A mail held back past the instant it stops being useful (a reminder after the booking's start) is
-- recorded as suppressed for that reason.
ALTER TABLE mail_suppressions DROP CONSTRAINT mail_suppressions_reason_check;
ALTER TABLE mail_suppressions ADD CONSTRAINT mail_suppressions_reason_check CHECK (reason IN ('never', 'disabled', 'expired'));
