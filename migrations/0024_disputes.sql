-- Disputes before capture (issue 13): between "service rendered" and the automatic validation the
-- client reports a problem (the booking becomes DISPUTED, its hold kept and renewed); both parties and
-- administrators add messages and files; an administrator resolves it (RESOLVED: capture all, part, or
-- release everything) with a note both parties see. Files live in the storage
-- (DATA_DIR/uploads/disputes/<uuid>); rows hold their metadata.

-- What a resolved dispute keeps (the amount to capture; 0: everything released). Set in RESOLVED only,
-- and what is captured never exceeds it.
ALTER TABLE bookings ADD COLUMN resolved_capture_minor bigint CHECK (resolved_capture_minor >= 0);
ALTER TABLE bookings ADD CONSTRAINT bookings_resolved_capture CHECK ((status = 'RESOLVED') = (resolved_capture_minor IS NOT NULL));
ALTER TABLE bookings ADD CONSTRAINT bookings_resolved_kept CHECK (status <> 'RESOLVED' OR captured_minor <= resolved_capture_minor);

CREATE TABLE booking_disputes (
  id uuid PRIMARY KEY,
  -- One dispute per booking (a booking is disputed at most once: RESOLVED is final).
  booking_id uuid NOT NULL UNIQUE REFERENCES bookings(id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('NOT_DONE', 'PARTLY_DONE', 'QUALITY', 'OTHER')),
  description text NOT NULL CHECK (description <> ''),
  opened_by uuid NOT NULL REFERENCES users(id),
  opened_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVED')),
  outcome text CHECK (outcome IN ('CAPTURE_ALL', 'CAPTURE_PART', 'RELEASE')),
  note text,
  resolved_by uuid REFERENCES users(id),
  resolved_at timestamptz,
  CHECK ((status = 'RESOLVED') = (outcome IS NOT NULL)),
  CHECK ((status = 'RESOLVED') = (note IS NOT NULL)),
  CHECK ((status = 'RESOLVED') = (resolved_at IS NOT NULL))
);
-- The admin dashboard lists the open ones, oldest first.
CREATE INDEX booking_disputes_open ON booking_disputes (opened_at) WHERE status = 'OPEN';

CREATE TABLE booking_dispute_messages (
  id uuid PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES booking_disputes(id) ON DELETE CASCADE,
  author_id uuid NOT NULL REFERENCES users(id),
  author_role text NOT NULL CHECK (author_role IN ('CLIENT', 'PROVIDER', 'ADMIN')),
  -- Empty when the message only carries files.
  body text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX booking_dispute_messages_thread ON booking_dispute_messages (dispute_id, created_at);

CREATE TABLE booking_dispute_files (
  id uuid PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES booking_disputes(id) ON DELETE CASCADE,
  -- NULL: sent with the report itself.
  message_id uuid REFERENCES booking_dispute_messages(id) ON DELETE CASCADE,
  uploaded_by uuid NOT NULL REFERENCES users(id),
  file_name text NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  storage_key text NOT NULL UNIQUE,
  -- The file's place among those sent together (file1, file2, file3): the thread lists them in that order.
  position smallint NOT NULL CHECK (position >= 0),
  created_at timestamptz NOT NULL
);
CREATE INDEX booking_dispute_files_dispute ON booking_dispute_files (dispute_id, created_at);
