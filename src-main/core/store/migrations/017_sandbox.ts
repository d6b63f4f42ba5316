/**
 * Migration 017 (issue #31, enforced roots): a local server's sandbox policy, as JSON
 * (`{ enabled, network, hosts }`, see `SandboxPolicySchema`). NULL for every existing server: they
 * keep running unsandboxed until the user turns the sandbox on.
 */
export default `
ALTER TABLE servers ADD COLUMN sandbox TEXT;
`;
