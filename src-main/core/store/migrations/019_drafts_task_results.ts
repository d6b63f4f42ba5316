/**
 * Migration 019 (issue #33):
 * - chat_drafts: what the user has typed but not sent, per conversation, so a reload or a restart does
 *   not lose it. The key is a conversation id, or '' for the message box before any conversation exists.
 * - task_results: what a tool call run as a task returned (the capped preview the Tools tab shows), so
 *   the Tasks tab still shows it after the user left the Tools tab, reloaded or restarted.
 */
export default `
CREATE TABLE chat_drafts (
  draft_key  TEXT PRIMARY KEY,
  text       TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE task_results (
  task_id      TEXT PRIMARY KEY NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  outcome_json TEXT NOT NULL
);
`;
