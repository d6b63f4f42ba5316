/**
 * Migration 023 (issue #39, workload identity): "As an application" gets a third credential, the
 * workload's identity token (a JWT its platform issues) exchanged with the JWT bearer grant. The token
 * is short-lived and read from a command at each sign-in; only the command is stored.
 */
export default `
ALTER TABLE servers ADD COLUMN oauth_assertion_command TEXT NOT NULL DEFAULT '';
`;
