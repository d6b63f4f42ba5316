/** Migration 004: roots (issue: roots). */
export default `
-- Folders the user may share with servers. path is the canonical (real) path and is unique.
CREATE TABLE roots (
  id          TEXT PRIMARY KEY NOT NULL,
  name        TEXT NOT NULL,
  path        TEXT NOT NULL UNIQUE,
  picked_path TEXT,                  -- what the user picked, when it differs (a symlink, a ..)
  position    INTEGER NOT NULL,
  created_at  TEXT NOT NULL
);

-- What each server may see, once decided (no row = not decided yet: the user is asked first).
CREATE TABLE root_sharing (
  server_id  TEXT PRIMARY KEY NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  mode       TEXT NOT NULL CHECK (mode IN ('none', 'all', 'subset')),
  decided_at TEXT NOT NULL
);

-- The chosen folders of a 'subset' policy. Removing a folder or the server removes its rows.
CREATE TABLE root_sharing_roots (
  server_id TEXT NOT NULL REFERENCES root_sharing (server_id) ON DELETE CASCADE,
  root_id   TEXT NOT NULL REFERENCES roots (id) ON DELETE CASCADE,
  PRIMARY KEY (server_id, root_id)
);

-- What was shared with whom, and when. Kept after a server is removed (no foreign key), bounded by the host.
CREATE TABLE roots_audit (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          TEXT NOT NULL,
  server_id   TEXT NOT NULL,
  server_name TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN ('sent', 'sharing')),
  roots       TEXT NOT NULL,         -- JSON array of {uri, name}
  detail      TEXT NOT NULL
);
CREATE INDEX roots_audit_by_server ON roots_audit (server_id, id);
`;
