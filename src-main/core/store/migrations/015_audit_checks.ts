/**
 * Migration 015 (issue #15, host CPU per tool call): the tool-call audit trail's CHECK constraints as
 * chains of `=` comparisons instead of `IN (…)` lists. Same rules (a NULL outcome still passes, as it
 * did), but SQLite evaluates a CHECK's `IN (…)` list by building a temporary index for it on every
 * INSERT, on a row written for every call (four of them doubled its cost). SQLite cannot change a
 * CHECK in place, so the table is rebuilt with its rows, as 014 did.
 */
const oneOf = (column: string, values: readonly string[]) => values.map((value) => `${column} = '${value}'`).join(' OR ');

export default `
CREATE TABLE tool_audit_next (
  seq             INTEGER PRIMARY KEY,
  call_id         TEXT NOT NULL,
  server_id       TEXT NOT NULL,
  server_name     TEXT NOT NULL,
  tool_name       TEXT NOT NULL,
  origin          TEXT NOT NULL CHECK (${oneOf('origin', ['user', 'model', 'app'])}),
  decided_by      TEXT NOT NULL CHECK (${oneOf('decided_by', ['user', 'policy', 'timeout', 'host'])}),
  decision        TEXT NOT NULL CHECK (${oneOf('decision', ['allowed', 'denied'])}),
  decision_note   TEXT,
  definition_hash TEXT,
  args_digest     TEXT NOT NULL,
  args_json       TEXT NOT NULL,              -- redacted
  requested_at    TEXT NOT NULL,
  decided_at      TEXT NOT NULL,
  finished_at     TEXT,
  duration_ms     REAL,
  outcome         TEXT CHECK (${oneOf('outcome', ['ok', 'tool_error', 'protocol_error', 'cancelled', 'denied', 'interrupted'])}),
  outcome_note    TEXT,                       -- redacted
  result_bytes    INTEGER
);
INSERT INTO tool_audit_next SELECT * FROM tool_audit;
DROP TABLE tool_audit;
ALTER TABLE tool_audit_next RENAME TO tool_audit;
`;
