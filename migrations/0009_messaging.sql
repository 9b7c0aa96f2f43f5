-- Messaging (src/modules/messaging/README.md): conversations between two users, optionally about a
-- service, their participants and messages. A message is read when its recipient read it (read_at):
-- conversations have exactly two participants, so one mark per message is exact.

CREATE TABLE conversations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text CHECK (char_length(title) BETWEEN 1 AND 200),
  service_id uuid REFERENCES services(id) ON DELETE SET NULL,
  -- The two participants' ids, ordered and joined ("<low>:<high>"): one conversation per pair and service.
  pair_key text NOT NULL CHECK (pair_key ~ '^[0-9a-f-]{36}:[0-9a-f-]{36}$'),
  last_message_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE NULLS NOT DISTINCT (pair_key, service_id)
);

CREATE TABLE conversation_participants (
  conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, user_id)
);
-- A user's conversations (the list query starts here).
CREATE INDEX conversation_participants_user_idx ON conversation_participants (user_id, conversation_id);
-- The list's order: last activity first.
CREATE INDEX conversations_activity_idx ON conversations (last_message_at DESC, id DESC);

CREATE TABLE messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The order of messages: timestamps can tie within a millisecond, the sequence cannot.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  sender_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
-- The messages page (newest first) and each conversation's last message.
CREATE INDEX messages_conversation_idx ON messages (conversation_id, seq DESC);
-- Unread counts: only unread rows are indexed, so counting stays cheap however long a conversation gets.
CREATE INDEX messages_unread_idx ON messages (conversation_id, sender_id) WHERE read_at IS NULL;
