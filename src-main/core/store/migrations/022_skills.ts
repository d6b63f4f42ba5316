/**
 * Migration 022 (issue #39, skills): the user's switch for each skill, by the skill's key
 * (`server:<serverId>:<uri>` or `local:<folder name>`: a server's URI is never a key alone). A skill
 * without a row has its source's default (local skills on, a server's off).
 */
export default `
CREATE TABLE skill_prefs (
  key TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  updated_at TEXT NOT NULL
);
`;
