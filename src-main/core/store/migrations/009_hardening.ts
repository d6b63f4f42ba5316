/**
 * Issue #15 (hardening): keyset paging of the conversation list on (updated_at, id), both descending,
 * so every conversation stays reachable however many there are (the old index ordered by time only).
 */
export default `
CREATE INDEX conversations_by_update_id ON conversations (updated_at DESC, id DESC);
DROP INDEX conversations_by_update;
`;
