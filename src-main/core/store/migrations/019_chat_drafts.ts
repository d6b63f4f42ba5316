/**
 * Migration 019 (issue #33): what the user has typed but not sent, per conversation, so a reload or a
 * restart does not lose it. The key is a conversation id, or '' for the message box before any
 * conversation exists.
 */
export default `
CREATE TABLE chat_drafts (
  draft_key  TEXT PRIMARY KEY,
  text       TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;
