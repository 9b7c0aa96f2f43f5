-- Safety between strangers (issue 15; src/modules/messaging/README.md, "Block, report, moderation"):
-- who blocked whom, reports of a message or a profile and the moderators' decisions, and messages
-- a moderator hid (hidden for everyone but admins).

CREATE TABLE user_blocks (
  blocker_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  blocked_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id <> blocked_id)
);
-- "Is this pair blocked either way": the primary key answers one direction, this index the other.
CREATE INDEX user_blocks_blocked_idx ON user_blocks (blocked_id, blocker_id);

CREATE TABLE reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  reporter_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reported_user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The reported message; NULL for a report of a profile.
  message_id uuid REFERENCES messages(id) ON DELETE SET NULL,
  reason text NOT NULL CHECK (reason IN ('SPAM', 'HARASSMENT', 'INAPPROPRIATE', 'SCAM', 'OFF_PLATFORM', 'OTHER')),
  details text NOT NULL DEFAULT '' CHECK (char_length(details) <= 1000),
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'DISMISSED', 'WARNED', 'MESSAGE_HIDDEN', 'ACCOUNT_DEACTIVATED')),
  decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
  decided_at timestamptz,
  decision_note text NOT NULL DEFAULT '' CHECK (char_length(decision_note) <= 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (reporter_id <> reported_user_id)
);
-- The moderation queue: by status, newest first.
CREATE INDEX reports_queue_idx ON reports (status, seq DESC);

ALTER TABLE messages ADD COLUMN hidden_at timestamptz;
