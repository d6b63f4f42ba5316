/** Migration 010: how a remote server signs in (in the browser, as an application, through your organisation). */
export default `
-- browser: as you, in the browser (what every server did before); application: the client credentials
-- grant; organization: your identity provider's ID token exchanged for an identity assertion grant.
ALTER TABLE servers ADD COLUMN sign_in_mode TEXT NOT NULL DEFAULT 'browser';
-- application: client_secret (oauth_client_secret) or private_key_jwt (oauth_private_key).
ALTER TABLE servers ADD COLUMN oauth_client_auth TEXT NOT NULL DEFAULT 'client_secret';
ALTER TABLE servers ADD COLUMN oauth_private_key BLOB;               -- sealed PEM
-- The authorization server (issuer) the credentials belong to; '' = whichever the server names.
ALTER TABLE servers ADD COLUMN oauth_issuer TEXT NOT NULL DEFAULT '';
-- organization: the identity provider, Patchbay's client there, and how to get your ID token.
ALTER TABLE servers ADD COLUMN idp_issuer TEXT NOT NULL DEFAULT '';
ALTER TABLE servers ADD COLUMN idp_token_endpoint TEXT NOT NULL DEFAULT '';   -- '' = discovered from idp_issuer
ALTER TABLE servers ADD COLUMN idp_client_id TEXT NOT NULL DEFAULT '';
ALTER TABLE servers ADD COLUMN idp_client_secret BLOB;               -- sealed
ALTER TABLE servers ADD COLUMN idp_id_token_command TEXT NOT NULL DEFAULT '';
`;
