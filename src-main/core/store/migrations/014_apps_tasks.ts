/**
 * Migration 014 (issue #16, MCP Apps and tasks):
 * - tasks: every task Patchbay created on a server (a tool call run as a task) or ran for a server
 *   (a sampling or elicitation request accepted as a task), with where it stands — kept so a reload
 *   or a restart still shows them;
 * - the tool-call audit trail accepts the origin `app` (a call a server's app asked for). SQLite
 *   cannot change a CHECK constraint in place, so the table is rebuilt with its rows.
 */
export default `
CREATE TABLE tasks (
  id               TEXT PRIMARY KEY NOT NULL,
  server_id        TEXT NOT NULL,
  server_name      TEXT NOT NULL,
  task_id          TEXT NOT NULL,
  side             TEXT NOT NULL CHECK (side IN ('server', 'client')),
  kind             TEXT NOT NULL CHECK (kind IN ('tool', 'sampling', 'elicitation')),
  tool_name        TEXT,
  call_id          TEXT,
  origin           TEXT,
  status           TEXT NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled', 'lost')),
  status_message   TEXT,
  note             TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  ttl_ms           INTEGER,
  poll_interval_ms INTEGER
);
CREATE INDEX tasks_by_time ON tasks (created_at DESC, id);

CREATE TABLE tool_audit_next (
  seq             INTEGER PRIMARY KEY,
  call_id         TEXT NOT NULL,
  server_id       TEXT NOT NULL,
  server_name     TEXT NOT NULL,
  tool_name       TEXT NOT NULL,
  origin          TEXT NOT NULL CHECK (origin IN ('user', 'model', 'app')),
  decided_by      TEXT NOT NULL CHECK (decided_by IN ('user', 'policy', 'timeout', 'host')),
  decision        TEXT NOT NULL CHECK (decision IN ('allowed', 'denied')),
  decision_note   TEXT,
  definition_hash TEXT,
  args_digest     TEXT NOT NULL,
  args_json       TEXT NOT NULL,
  requested_at    TEXT NOT NULL,
  decided_at      TEXT NOT NULL,
  finished_at     TEXT,
  duration_ms     REAL,
  outcome         TEXT CHECK (outcome IN ('ok', 'tool_error', 'protocol_error', 'cancelled', 'denied', 'interrupted')),
  outcome_note    TEXT,
  result_bytes    INTEGER
);
INSERT INTO tool_audit_next SELECT * FROM tool_audit;
DROP TABLE tool_audit;
ALTER TABLE tool_audit_next RENAME TO tool_audit;
`;
