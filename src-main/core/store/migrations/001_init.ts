/** Migration 001. SQL kept in a TS module so every runtime (Vite, vitest, tsx, Node) loads it alike. */
export default `
-- Settings: one row per key, the value as JSON so every type round-trips.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY NOT NULL,
  value      TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;
