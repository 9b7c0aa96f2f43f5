-- The audit log of administrators' decisions (issue 13 item 4, issue 15 item 2): who, when, what
-- (an action code, the subject's type and id), and the subject before and after (JSON). Written in
-- the transaction of the decision it records (src/platform/audit/), never updated nor deleted.
-- actor_id has no foreign key: the CLI acts as an operator that is no account (cli/commands/bookings/shared.ts),
-- and a row must outlive the erasure of its actor's account. subject_id is text for the same reason.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  actor_id uuid NOT NULL,
  action text NOT NULL,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The /admin/audit filters: newest first, alone or by action, actor or subject (the date range rides on created_at).
CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at DESC);
CREATE INDEX audit_log_subject_idx ON audit_log (subject_type, subject_id, created_at DESC);
