/** Migration 008: remote (HTTP) servers and their OAuth credentials. */
export default `
-- A server is a local command (stdio) or a remote URL (http: Streamable HTTP, or legacy HTTP+SSE).
ALTER TABLE servers ADD COLUMN transport TEXT NOT NULL DEFAULT 'stdio';
ALTER TABLE servers ADD COLUMN url TEXT NOT NULL DEFAULT '';
-- An OAuth client registered in advance by the user (for authorization servers without dynamic registration).
ALTER TABLE servers ADD COLUMN oauth_client_id TEXT NOT NULL DEFAULT '';
ALTER TABLE servers ADD COLUMN oauth_client_secret BLOB;             -- sealed

-- Static HTTP headers of a remote server. Like server_env: a secret's value only ever sealed.
CREATE TABLE server_headers (
  server_id   TEXT NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  key         TEXT NOT NULL,
  value       TEXT,
  secret_blob BLOB,
  PRIMARY KEY (server_id, key),
  CHECK ((value IS NULL) <> (secret_blob IS NULL))
);

-- OAuth state, always sealed (tokens, client secrets, PKCE verifiers are secrets; so is what they reveal).
-- Client registrations are keyed by issuer alone (one registration per authorization server serves every
-- server that uses it); tokens by server and issuer (an access token is bound to one resource).
CREATE TABLE oauth_clients (
  issuer      TEXT PRIMARY KEY NOT NULL,
  sealed      BLOB NOT NULL,
  updated_at  TEXT NOT NULL
);
CREATE TABLE oauth_tokens (
  server_id   TEXT NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  issuer      TEXT NOT NULL,
  sealed      BLOB NOT NULL,
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (server_id, issuer)
);
`;
