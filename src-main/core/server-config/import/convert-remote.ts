import { HEADER_NAME_PATTERN } from '@contract';
import { fail, orEmpty, readStringMap, type FieldsResult } from './field-checks';
import { own } from './read-jsonc';
import { HEADER_PAIRS, type ImportedPair, type VariableResolver } from './variables';

/** Why WebSocket entries stay behind (by `type`, or by a ws:// URL). */
export const WEBSOCKET_REASON =
  "WebSocket servers are not supported (MCP's remote transport is HTTP): use the server's HTTP URL if it has one";

/** What a remote entry contributes to the server. */
export interface RemoteFields {
  transport: 'http';
  url: string;
  headers: ImportedPair[];
}

/**
 * `url` (Windsurf: `serverUrl`) and `headers` of a remote entry. Whether the server speaks Streamable
 * HTTP or the old HTTP+SSE the host finds out when it connects, so `"type": "sse"` needs nothing here.
 * Header values that look like credentials become secrets (see `HEADER_PAIRS`).
 */
export function remoteFields(raw: Record<string, unknown>, variables: VariableResolver): FieldsResult<RemoteFields> {
  const key = own(raw, 'url') !== undefined ? 'url' : 'serverUrl';
  const url = own(raw, key);
  if (url === undefined || url === null || (typeof url === 'string' && url.trim() === '')) return fail('No URL to connect to');
  if (typeof url !== 'string') return fail(`"${key}" must be a string`);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
  if (scheme === 'ws' || scheme === 'wss') return fail(WEBSOCKET_REASON);
  if (scheme !== 'http' && scheme !== 'https') return fail(`"${key}" must be an http:// or https:// URL (it is ${JSON.stringify(url)})`);

  const headers = readStringMap(orEmpty(own(raw, 'headers'), {}), {
    field: 'headers',
    shape: '"Name": "value"',
    namePattern: HEADER_NAME_PATTERN,
    nameNoun: 'header name',
    nameRule: 'use letters, digits and - only',
    valuesNoun: 'Header values',
  });
  if (!headers.ok) return headers;
  // Header names ignore case, so a file can name one header twice; which value would win is anyone's guess.
  const seen = new Map<string, string>();
  for (const [name] of headers.fields) {
    const earlier = seen.get(name.toLowerCase());
    if (earlier !== undefined) return fail(`Header ${JSON.stringify(name)} is set twice (also as ${JSON.stringify(earlier)})`);
    seen.set(name.toLowerCase(), name);
  }

  return {
    ok: true,
    fields: {
      transport: 'http',
      url: variables.expand(url.trim(), key),
      headers: headers.fields.map(([name, value]) => variables.pair(name, value, HEADER_PAIRS)),
    },
  };
}
