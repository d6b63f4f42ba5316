/** Migration 005: tool policies and the audit trail (issue: tools and consent). */
export default `
-- Standing decisions per tool. An 'allow' is pinned to the definition it was given for: the hash
-- decides, the JSON is kept to show the user what changed when the server changes the tool.
CREATE TABLE tool_policies (
  server_id       TEXT NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  tool_name       TEXT NOT NULL,
  decision        TEXT NOT NULL CHECK (decision IN ('allow', 'deny', 'ask')),
  definition_hash TEXT,
  definition_json TEXT,
  created_at      TEXT NOT NULL,
  PRIMARY KEY (server_id, tool_name),
  CHECK (decision <> 'allow' OR (definition_hash IS NOT NULL AND definition_json IS NOT NULL))
);

-- "Trust all tools of this server": pinned to every tool definition the server had at that moment
-- (JSON object: tool name -> { hash, definition }).
CREATE TABLE server_trust (
  server_id   TEXT PRIMARY KEY NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  definitions TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

-- Every tool call, write-ahead: the row (decision, definition hash, arguments digest) is committed
-- before tools/call leaves the process; the outcome columns are filled when it ends. A row whose
-- outcome is still NULL at the next start is marked 'interrupted' (never re-run). No foreign key:
-- the trail outlives the server it is about.
-- Kept lean on purpose: the row is written on every call's critical path (see audit-store.ts), so
-- no secondary index (one page per write); outcomes are filled in by seq, pages are read by seq.
CREATE TABLE tool_audit (
  seq             INTEGER PRIMARY KEY,
  call_id         TEXT NOT NULL,
  server_id       TEXT NOT NULL,
  server_name     TEXT NOT NULL,
  tool_name       TEXT NOT NULL,
  origin          TEXT NOT NULL CHECK (origin IN ('user', 'model')),
  decided_by      TEXT NOT NULL CHECK (decided_by IN ('user', 'policy', 'timeout', 'host')),
  decision        TEXT NOT NULL CHECK (decision IN ('allowed', 'denied')),
  decision_note   TEXT,
  definition_hash TEXT,
  args_digest     TEXT NOT NULL,
  args_json       TEXT NOT NULL,              -- redacted
  requested_at    TEXT NOT NULL,
  decided_at      TEXT NOT NULL,
  finished_at     TEXT,
  duration_ms     REAL,
  outcome         TEXT CHECK (outcome IN ('ok', 'tool_error', 'protocol_error', 'cancelled', 'denied', 'interrupted')),
  outcome_note    TEXT,                       -- redacted
  result_bytes    INTEGER
);

-- Consent preferences (key -> JSON value).
CREATE TABLE consent_prefs (
  key   TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL
);
`;
