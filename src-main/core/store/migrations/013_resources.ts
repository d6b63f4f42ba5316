/** Migration 012: followed resources and the resource/prompt use audit trail (issue #14). */
export default `
-- Resources the user follows: re-subscribed whenever the server becomes ready, until unsubscribed.
CREATE TABLE resource_subscriptions (
  server_id  TEXT NOT NULL,
  uri        TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (server_id, uri)
);

-- Every read, attachment, prompt use and subscription the user made, newest last.
CREATE TABLE content_audit (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  action          TEXT NOT NULL,
  server_id       TEXT NOT NULL,
  server_name     TEXT NOT NULL,
  target          TEXT NOT NULL,
  detail          TEXT,
  conversation_id TEXT,
  outcome         TEXT NOT NULL CHECK (outcome IN ('ok', 'error')),
  error           TEXT,
  chars           INTEGER,
  at              TEXT NOT NULL
);
`;
