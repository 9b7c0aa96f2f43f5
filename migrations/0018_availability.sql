-- Providers' availability (issue 12; src/modules/booking/availability/): a weekly plan of wall-clock
-- ranges in the plan's zone, exceptions (closed or extra open instants), a minimum notice and a buffer
-- between bookings. A provider without a row here has the default plan (08:00 to 20:00 every day in
-- their zone, 2 hours' notice, no buffer). The ranges and exceptions are replaced whole on each PUT.
-- The ranges' exclusion constraint needs btree_gist (0003 installs it; serialised like 0007).
SELECT pg_advisory_xact_lock(7303003);
CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public;

CREATE TABLE availability_plans (
  provider_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  -- IANA zone name the ranges are read in (checked against the platform's zone list by the service).
  time_zone text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
  notice_minutes integer NOT NULL DEFAULT 120 CHECK (notice_minutes BETWEEN 0 AND 43200),
  buffer_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_minutes BETWEEN 0 AND 720),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE availability_ranges (
  provider_id uuid NOT NULL REFERENCES availability_plans(provider_id) ON DELETE CASCADE,
  -- ISO weekday: 1 = Monday ... 7 = Sunday.
  weekday smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
  -- Minutes of the day, [start, end); 1440 is 24:00.
  start_minute smallint NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
  end_minute smallint NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
  CHECK (end_minute > start_minute),
  -- The ranges of one weekday never overlap.
  CONSTRAINT availability_ranges_no_overlap EXCLUDE USING gist (
    provider_id WITH =, weekday WITH =, int4range(start_minute, end_minute, '[)') WITH &&)
);

CREATE TABLE availability_exceptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider_id uuid NOT NULL REFERENCES availability_plans(provider_id) ON DELETE CASCADE,
  -- closed: unavailable (a holiday, a day off); open: extra open time outside the weekly plan.
  kind text NOT NULL CHECK (kind IN ('closed', 'open')),
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  note text CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 200),
  CHECK (end_time > start_time)
);
-- The slots query reads a provider's exceptions overlapping its window.
CREATE INDEX availability_exceptions_window_idx ON availability_exceptions
  USING gist (provider_id, tstzrange(start_time, end_time, '[)'));
