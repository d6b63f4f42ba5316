/** Migration 003: logs (issue: log viewers). SQL kept in a TS module so every runtime loads it alike. */
export default `
-- Log entries of every server and stream. seq is host-wide and increasing: the order and the paging key.
-- No foreign key to servers: a batch written just after a server was removed must not fail as a whole;
-- entries of removed servers are deleted explicitly (and swept at start).
CREATE TABLE log_entries (
  seq       INTEGER PRIMARY KEY NOT NULL,
  server_id TEXT NOT NULL,
  stream    TEXT NOT NULL,             -- output | messages | protocol | host
  ts        INTEGER NOT NULL,          -- epoch ms
  level     INTEGER NOT NULL,          -- 0 debug … 7 emergency
  text      TEXT NOT NULL,             -- redacted one-line summary
  method    TEXT,                      -- protocol: the (paired) method
  logger    TEXT,                      -- messages: the logger the server named
  meta      TEXT,                      -- JSON: the stream's own fields (direction, id, bytes, latency, event…)
  detail    TEXT,                      -- redacted full message or data, pretty JSON, capped
  truncated INTEGER NOT NULL DEFAULT 0,
  bytes     INTEGER NOT NULL           -- approximate stored size, for the total-size retention limit
);
CREATE INDEX log_entries_by_stream ON log_entries (server_id, stream, seq);
CREATE INDEX log_entries_by_time ON log_entries (ts);

-- Retention settings (one row per key, JSON values; defaults apply to missing keys).
CREATE TABLE log_settings (
  key   TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL
);

-- The log level the user chose per server, applied again at every start.
CREATE TABLE log_levels (
  server_id TEXT PRIMARY KEY NOT NULL,
  level     TEXT NOT NULL
);
`;
