/**
 * Migration 013: model providers (issue #19). The Anthropic settings of earlier versions become the
 * first provider, without loss: its base URL from the `anthropicBaseUrl` setting, its sealed API key
 * moved byte for byte from `host_secrets` (the seal does not depend on where it is kept). The default
 * model stays the `defaultModel` setting; its provider is the `defaultProviderId` setting, whose
 * default is this provider. Conversations and answers get their provider and model; existing ones
 * have none and use the default.
 */
export default `
-- type: how to speak to it ('anthropic', 'openai-compatible'; the host ignores a type it does not know).
-- base_url: as entered ('' = the type's default). api_key_sealed: sealed by the SecretBox, never plaintext.
-- models: JSON ModelInfo[] its models API listed at models_fetched_at (models_note: why not, or what failed).
-- no_tool_models: JSON string[] of models that refused tools (the user chose to go on without them).
CREATE TABLE llm_providers (
  id                TEXT PRIMARY KEY NOT NULL,
  type              TEXT NOT NULL,
  name              TEXT NOT NULL,
  base_url          TEXT NOT NULL DEFAULT '',
  api_key_sealed    BLOB,
  models            TEXT,
  models_fetched_at TEXT,
  models_note       TEXT,
  no_tool_models    TEXT,
  position          INTEGER NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
);

INSERT INTO llm_providers (id, type, name, base_url, api_key_sealed, position, created_at, updated_at)
VALUES (
  'anthropic',
  'anthropic',
  'Anthropic',
  COALESCE(
    (SELECT json_extract(value, '$') FROM settings
      WHERE key = 'anthropicBaseUrl' AND json_valid(value) AND json_type(value) = 'text'),
    ''
  ),
  (SELECT sealed FROM host_secrets WHERE name = 'anthropic_api_key'),
  0,
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
);
DELETE FROM settings WHERE key = 'anthropicBaseUrl';
DELETE FROM host_secrets WHERE name = 'anthropic_api_key';

-- NULL: the default model (Settings), as before providers existed.
ALTER TABLE conversations ADD COLUMN provider_id TEXT;
ALTER TABLE conversations ADD COLUMN model TEXT;
ALTER TABLE chat_messages ADD COLUMN provider_id TEXT;
`;
