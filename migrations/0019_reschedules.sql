-- Rescheduling (issue 12): either party of a PENDING or CONFIRMED booking proposes a new time; the other
-- accepts (the booking moves, under its row lock, the exclusion constraint deciding races) or declines;
-- an open proposal lapses at the booking's start. Every proposal is kept: the booking shows its history.
CREATE TABLE booking_reschedules (
  id uuid PRIMARY KEY,
  booking_id uuid NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  proposed_by text NOT NULL CHECK (proposed_by IN ('CLIENT', 'PROVIDER')),
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  -- The total at the proposed duration (the booking's own when the duration is kept).
  total_minor bigint NOT NULL CHECK (total_minor > 0),
  -- The booking as it stood when proposed.
  previous_start_time timestamptz NOT NULL,
  previous_end_time timestamptz NOT NULL,
  previous_total_minor bigint NOT NULL CHECK (previous_total_minor > 0),
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'ACCEPTED', 'DECLINED', 'EXPIRED')),
  -- The booking's start when proposed.
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text CHECK (decided_by IN ('CLIENT', 'PROVIDER', 'ADMIN', 'SYSTEM')),
  CHECK (end_time > start_time),
  CHECK (previous_end_time > previous_start_time),
  CHECK ((status = 'OPEN') = (decided_at IS NULL)),
  CHECK ((status = 'OPEN') = (decided_by IS NULL))
);

-- One open proposal per booking.
CREATE UNIQUE INDEX booking_reschedules_one_open ON booking_reschedules (booking_id) WHERE status = 'OPEN';
CREATE INDEX booking_reschedules_booking ON booking_reschedules (booking_id, created_at DESC);
