/** Migration 007: per-server sampling policies and the sampling/elicitation audit trail (issue #6). */
export default `
-- One row per server with a policy other than the default (ask, no limits).
CREATE TABLE sampling_policies (
  server_id        TEXT PRIMARY KEY NOT NULL,
  mode             TEXT NOT NULL CHECK (mode IN ('ask', 'auto', 'block')),
  rate_per_minute  INTEGER,
  max_tokens_cap   INTEGER,
  updated_at       TEXT NOT NULL
);

-- Every sampling and elicitation decision: what was asked and what was sent back (both redacted JSON).
CREATE TABLE interaction_audit (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind          TEXT NOT NULL CHECK (kind IN ('sampling', 'elicitation')),
  server_id     TEXT NOT NULL,
  server_name   TEXT NOT NULL,
  tool_call     TEXT,
  decided_by    TEXT NOT NULL CHECK (decided_by IN ('user', 'policy', 'host')),
  outcome       TEXT NOT NULL,
  request_json  TEXT NOT NULL,
  response_json TEXT,
  note          TEXT,
  requested_at  TEXT NOT NULL,
  decided_at    TEXT NOT NULL
);
`;
