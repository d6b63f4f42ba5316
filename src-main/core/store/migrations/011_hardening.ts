/**
 * Issue #15 (hardening):
 * - keyset paging of the conversation list on (updated_at, id), both descending, so every
 *   conversation stays reachable however many there are (the old index ordered by time only);
 * - each step of a sampling request as it happened (JSON array of InteractionStep), not only how it ended.
 */
export default `
CREATE INDEX conversations_by_update_id ON conversations (updated_at DESC, id DESC);
DROP INDEX conversations_by_update;

ALTER TABLE interaction_audit ADD COLUMN steps_json TEXT;
`;
