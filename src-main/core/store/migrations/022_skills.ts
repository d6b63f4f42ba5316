/**
 * Migration 022 (issue #39, skills): the user's switch for each skill, by the skill's key
 * (`server:<serverId>:<uri>` or `local:<folder name>`: a server's URI is never a key alone). A skill
 * without a row has its source's default (local skills on, a server's off). A server's skill switched on keeps the fingerprint of its files
then: another set of files or digests later counts as off until the user switches it on again.
 */
export default `
CREATE TABLE skill_prefs (
  key TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  -- A server's skill: sha256 of its files' URIs and digests when switched on (the switch binds to them).
  fingerprint TEXT,
  updated_at TEXT NOT NULL
);
`;
