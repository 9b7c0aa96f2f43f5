-- socket.io's PostgreSQL adapter (src/platform/realtime-postgres.ts): an event whose payload exceeds
-- NOTIFY's 8000 bytes (or holds binary data) is stored here, and only its id is notified; each
-- process deletes rows older than 30 s. The adapter names this table unqualified, so it resolves
-- through the search path like the application's own tables.
CREATE TABLE socket_io_attachments (
  id bigserial PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  payload bytea NOT NULL
);

CREATE INDEX socket_io_attachments_created_at ON socket_io_attachments (created_at);
