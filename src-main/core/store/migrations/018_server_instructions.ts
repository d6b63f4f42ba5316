/**
 * Migration 018 (issue #30, server instructions): whether a server's `instructions` go into the
 * system prompt of chat requests. A row only for a server the user turned them off for (the default
 * is on); it goes with its server.
 */
export default `
CREATE TABLE server_instructions_prefs (
  server_id TEXT PRIMARY KEY NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  send      INTEGER NOT NULL CHECK (send = 0 OR send = 1)
);
`;
