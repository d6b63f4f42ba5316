/** Migration 014: servers installed from MCP bundles (`.mcpb`), and the settings the user gave each bundle. */
export default `
-- The installed bundle (bundles/<id>/) a server runs; NULL for every other server.
ALTER TABLE servers ADD COLUMN bundle_id TEXT;
CREATE UNIQUE INDEX servers_bundle ON servers (bundle_id) WHERE bundle_id IS NOT NULL;

-- One row per installed bundle: its id is the manifest's name, its files live in bundles/<id>/.
CREATE TABLE bundles (
  id            TEXT PRIMARY KEY NOT NULL,
  version       TEXT NOT NULL,
  manifest      TEXT NOT NULL,        -- the validated manifest.json, as JSON
  installed_at  TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);

-- The values the user gave a bundle's user_config, kept so an update of the same bundle keeps them.
-- Like server_env: a sensitive value only ever sealed.
CREATE TABLE bundle_settings (
  bundle_id   TEXT NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
  key         TEXT NOT NULL,
  value       TEXT,                   -- JSON of a plain value
  secret_blob BLOB,                   -- a sensitive value, sealed
  PRIMARY KEY (bundle_id, key),
  CHECK ((value IS NULL) <> (secret_blob IS NULL))
);
`;
