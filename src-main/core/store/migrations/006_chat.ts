/** Migration 006: chat conversations, their messages, and sealed secrets such as the API key (issue: chat). */
export default `
-- Conversations. server_ids: JSON array of server ids whose tools are offered, NULL = every Ready server.
-- message_count is kept in step with chat_messages (same transaction) so the list never counts rows.
CREATE TABLE conversations (
  id            TEXT PRIMARY KEY NOT NULL,
  title         TEXT NOT NULL,
  server_ids    TEXT,
  last_error    TEXT,                            -- JSON ChatError of the last failed turn, NULL when none
  message_count INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX conversations_by_update ON conversations (updated_at DESC);

-- Messages as content blocks (JSON array of ChatBlock). seq orders a conversation and keys its pages;
-- the unique index serves paging, the next seq (MAX) and the cascade on delete.
CREATE TABLE chat_messages (
  id              INTEGER PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  seq             INTEGER NOT NULL,
  role            TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content         TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('complete', 'streaming', 'interrupted')),
  model           TEXT,
  stop_reason     TEXT,
  usage           TEXT,                          -- JSON ChatUsage
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
CREATE UNIQUE INDEX chat_messages_by_seq ON chat_messages (conversation_id, seq);
-- Only rows still streaming (a handful at most): start-up recovery finds them without a scan.
CREATE INDEX chat_messages_streaming ON chat_messages (status) WHERE status = 'streaming';

-- Secrets of the host itself (the Anthropic API key), sealed by the SecretBox; never plaintext.
CREATE TABLE host_secrets (
  name       TEXT PRIMARY KEY NOT NULL,
  sealed     BLOB NOT NULL,
  updated_at TEXT NOT NULL
);
`;
