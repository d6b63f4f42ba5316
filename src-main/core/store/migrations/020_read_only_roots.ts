/**
 * Migration 020 (issue #31, enforced roots): a folder can be shared read-only. A sandboxed server gets
 * it mounted read-only (its writes fail); 0 for every existing folder, which stays read-write.
 */
export default `
ALTER TABLE roots ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;
`;
