/** Migration 002. SQL kept in a TS module so every runtime (Vite, vitest, tsx, Node) loads it alike. */
export default `
-- MCP servers as the user configured them. name_key = lower(name) keeps names unique regardless of case.
CREATE TABLE servers (
  id                 TEXT PRIMARY KEY NOT NULL,
  name               TEXT NOT NULL,
  name_key           TEXT NOT NULL UNIQUE,
  command            TEXT NOT NULL,
  args               TEXT NOT NULL,             -- JSON array of strings
  cwd                TEXT NOT NULL,
  enabled            INTEGER NOT NULL,
  init_timeout_ms    INTEGER NOT NULL,
  request_timeout_ms INTEGER NOT NULL,
  auto_restart       INTEGER NOT NULL,
  preset             TEXT,
  era_verdict        TEXT,                      -- JSON: the SDK's cached era verdict (connect's prior option)
  position           INTEGER NOT NULL,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL
);

-- Environment variables per server. A secret's value is only ever stored sealed (secret_blob).
CREATE TABLE server_env (
  server_id   TEXT NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  key         TEXT NOT NULL,
  value       TEXT,
  secret_blob BLOB,
  PRIMARY KEY (server_id, key),
  CHECK ((value IS NULL) <> (secret_blob IS NULL))
);

-- Live server process groups, so a Patchbay that was killed can reap them at its next start.
CREATE TABLE live_processes (
  pid         INTEGER PRIMARY KEY NOT NULL,
  server_id   TEXT NOT NULL,
  pgid        INTEGER NOT NULL,
  start_time  TEXT,
  command     TEXT NOT NULL,
  recorded_at INTEGER NOT NULL
);
`;
