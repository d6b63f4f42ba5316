import { expect } from 'vitest';
import { HostCallError, type ImportPreview, type ServerInputParsed } from '@contract';
import { parseImport } from '../parse-import';

/** The home folder the import tests expand `~` and `${userHome}` against. */
export const HOME = '/home/ada';
/** What an import says of a WebSocket entry. */
export const WEBSOCKET = "WebSocket servers are not supported (MCP's remote transport is HTTP): use the server's HTTP URL if it has one";

/** The preview for `text`, as if `existing` servers were already configured. */
export function preview(text: string, existing: string[] = []): ImportPreview {
  return parseImport(text, { existingNames: new Set(existing), homeDir: HOME });
}
/** A server as ServerInputSchema fills it in. */
export function server(fields: Pick<ServerInputParsed, 'name' | 'command'> & Partial<ServerInputParsed>): ServerInputParsed {
  return {
    transport: 'stdio',
    args: [],
    env: [],
    cwd: '',
    url: '',
    headers: [],
    oauthClientId: '',
    signInMode: 'browser',
    oauthClientAuth: 'client_secret',
    oauthAssertionCommand: '',
    oauthIssuer: '',
    idpIssuer: '',
    idpTokenEndpoint: '',
    idpClientId: '',
    idpIdTokenCommand: '',
    enabled: true,
    initTimeoutMs: 60_000,
    requestTimeoutMs: 60_000,
    autoRestart: true,
    // No sandbox field: the host gives a new local server the default as it adds it.
    ...fields,
  };
}

/** A remote server as ServerInputSchema fills it in. */
export function remote(fields: Pick<ServerInputParsed, 'name' | 'url'> & Partial<ServerInputParsed>): ServerInputParsed {
  return server({ transport: 'http', command: '', ...fields });
}

/** The error parseImport throws for text that is not JSON. */
export function errorOf(text: string): HostCallError {
  try {
    preview(text);
  } catch (error) {
    expect(error).toBeInstanceOf(HostCallError);
    return error as HostCallError;
  }
  throw new Error('expected parseImport to throw');
}

/** Wraps entries in Claude Desktop's shape. */
export function claude(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

/** The one entry a preview of `text` holds. */
export function only(text: string, existing: string[] = []) {
  const { entries } = preview(text, existing);
  expect(entries).toHaveLength(1);
  return entries[0];
}
