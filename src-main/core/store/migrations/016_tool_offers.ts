/**
 * Migration 016 (issue #30, per-tool control and tool sets): which tools of a server the user offers
 * to the model (and pins), what a server's new tools start as, named tool sets, and the set each
 * conversation uses. Choices are keyed by server id and tool name, never by a catalog row: a tool that
 * disappears and comes back finds its row again.
 */
export default `
CREATE TABLE tool_offers (
  server_id  TEXT NOT NULL,
  tool_name  TEXT NOT NULL,
  offered    INTEGER NOT NULL CHECK (offered = 0 OR offered = 1),
  pinned     INTEGER NOT NULL DEFAULT 0 CHECK (pinned = 0 OR pinned = 1),
  PRIMARY KEY (server_id, tool_name)
) WITHOUT ROWID;
CREATE TABLE tool_offer_defaults (
  server_id  TEXT PRIMARY KEY,
  offer_new  INTEGER NOT NULL CHECK (offer_new = 0 OR offer_new = 1)
);
CREATE TABLE tool_sets (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  members    TEXT NOT NULL,                   -- JSON: { servers: [{id, name}], tools: [{serverId, serverName, tool}] }
  created_at TEXT NOT NULL
);
ALTER TABLE conversations ADD COLUMN tool_set_id TEXT;
`;
