import { describe, expect, it } from 'vitest';
import { claude, errorOf, only, preview, remote, server, WEBSOCKET } from './test-support/import-cases';

describe('parseImport: remote servers', () => {
  it('imports every HTTP type name, from url or Windsurf serverUrl, with headers', () => {
    const text = claude({
      github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ghp_example' } },
      asana: { type: 'sse', url: 'https://mcp.asana.com/sse' },
      a: { type: 'streamable-http', url: 'http://localhost:3000/mcp' },
      b: { type: 'streamableHttp', url: 'https://b.example/mcp', disabled: true },
      figma: { serverUrl: 'https://figma.example/mcp ', headers: { 'X-Figma-Region': 'eu' } },
    });
    expect(preview(text).entries).toEqual([
      // Authorization looks secret: its value is kept, to be stored encrypted.
      {
        name: 'github',
        action: 'import',
        server: remote({
          name: 'github',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: [{ key: 'Authorization', value: 'Bearer ghp_example', secret: true }],
        }),
      },
      { name: 'asana', action: 'import', server: remote({ name: 'asana', url: 'https://mcp.asana.com/sse' }) },
      { name: 'a', action: 'import', server: remote({ name: 'a', url: 'http://localhost:3000/mcp' }) },
      {
        name: 'b',
        action: 'import',
        reason: 'Imported disabled, as it is in the file',
        server: remote({ name: 'b', url: 'https://b.example/mcp', enabled: false }),
      },
      {
        name: 'figma',
        action: 'import',
        server: remote({
          name: 'figma',
          url: 'https://figma.example/mcp',
          headers: [{ key: 'X-Figma-Region', value: 'eu', secret: false }],
        }),
      },
    ]);
  });

  it('makes headers secret by their name, or when their value comes from a variable', () => {
    const headers = { 'X-API-Key': 'k', 'X-Auth-Token': 't', Cookie: 'c', 'X-Client-Secret': 's', 'Accept-Language': 'en', 'X-Trace': '1' };
    expect(only(claude({ h: { url: 'https://h.example/mcp', headers } })).server?.headers.map((h) => [h.key, h.secret])).toEqual([
      ['X-API-Key', true],
      ['X-Auth-Token', true],
      ['Cookie', true],
      ['X-Client-Secret', true],
      ['Accept-Language', false],
      ['X-Trace', false],
    ]);
    const text = `{
  "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }, { "type": "promptString", "id": "org" }],
  "servers": { "api": { "type": "http", "url": "https://api.example/mcp",
    "headers": { "Authorization": "Bearer \${input:token}", "X-Org": "\${input:org}", "X-Tenant": "\${env:TENANT}" } } }
}`;
    expect(only(text)).toEqual({
      name: 'api',
      action: 'import',
      reason:
        'Imported disabled: set Authorization (as "Bearer <API token>"), X-Org and replace ${env:TENANT} (in X-Tenant) before enabling. ' +
        "Values are not copied from this computer's environment",
      server: remote({
        name: 'api',
        url: 'https://api.example/mcp',
        headers: [
          { key: 'Authorization', secret: true },
          { key: 'X-Org', secret: true },
          { key: 'X-Tenant', value: '${env:TENANT}', secret: true },
        ],
        enabled: false,
      }),
    });
  });

  it.each([
    ['a WebSocket type', { type: 'websocket', url: 'wss://x.example/mcp' }, WEBSOCKET],
    ['a ws:// url', { url: 'ws://localhost:8080' }, WEBSOCKET],
    ['a url that is not http(s)', { url: 'ftp://x.example/mcp' }, '"url" must be an http:// or https:// URL (it is "ftp://x.example/mcp")'],
    ['a url that is a variable', { type: 'http', url: '${input:url}' }, '"url" must be an http:// or https:// URL (it is "${input:url}")'],
    ['a serverUrl that is not a string', { serverUrl: 42 }, '"serverUrl" must be a string'],
    ['an http type without url', { type: 'http', command: 'x' }, 'No URL to connect to'],
    ['an http URL without host', { url: 'https://' }, 'url: Enter an http:// or https:// URL'],
    ['headers that are a list', { url: 'https://x.example', headers: ['A: 1'] }, '"headers" must be an object of "Name": "value" pairs'],
    [
      'invalid header names',
      { url: 'https://x.example', headers: { 'Bad Header': '1', 'Ok-One': '2' } },
      'Invalid header name "Bad Header": use letters, digits and - only',
    ],
    [
      'header values that are not strings',
      { url: 'https://x.example', headers: { 'X-Retries': 3 } },
      'Header values must be strings in quotes (X-Retries is a number)',
    ],
    [
      'a header Patchbay sets itself',
      { url: 'https://x.example', headers: { 'Content-Type': 'text/plain' } },
      'headers Content-Type: Patchbay sets this header itself',
    ],
    [
      'a header named twice',
      { url: 'https://x.example', headers: { 'X-Key': 'a', 'x-key': 'b' } },
      'Header "x-key" is set twice (also as "X-Key")',
    ],
  ])('skips %s', (_what, entry, reason) => {
    expect(only(claude({ r: entry }))).toEqual({ name: 'r', action: 'skip', reason });
  });

  it('keeps an explicit "stdio" local even with a stray url', () => {
    expect(only(claude({ s: { type: 'stdio', command: 'srv', url: 'https://x.example' } })).server).toEqual(
      server({ name: 's', command: 'srv' }),
    );
  });
});

describe('parseImport: duplicates', () => {
  it('skips names of existing servers, ignoring case and spaces', () => {
    expect(only(claude({ ' GitHub ': { command: 'npx' } }), ['github'])).toEqual({
      name: ' GitHub ',
      action: 'skip',
      reason: 'A server named "GitHub" already exists',
    });
  });

  it('skips a later entry with the name of an earlier imported one, but not of a skipped one', () => {
    const text = `{ "mcpServers": {
      "memory": { "command": "npx" },
      "Memory": { "command": "uvx" },
      "docs": { "type": "ws", "url": "wss://example.com/mcp" },
      "Docs": { "command": "docs-mcp" },
      "memory": { "command": "again" }
    } }`;
    expect(preview(text).entries.map(({ name, action, reason }) => ({ name, action, reason }))).toEqual([
      { name: 'memory', action: 'import', reason: undefined },
      { name: 'Memory', action: 'skip', reason: 'Same name as "memory" earlier in this file' },
      { name: 'docs', action: 'skip', reason: WEBSOCKET },
      { name: 'Docs', action: 'import', reason: undefined },
      { name: 'memory', action: 'skip', reason: 'Same name as "memory" earlier in this file' },
    ]);
  });
});

describe('parseImport: entries it refuses', () => {
  it.each([
    ['no command', { args: ['x'] }, 'No command to run'],
    ['an empty command', { command: '  ' }, 'No command to run'],
    ['a command that is not a string', { command: ['npx', '-y'] }, '"command" must be a string'],
    ['args that are not a list', { command: 'npx', args: '-y pkg' }, '"args" must be a list of strings'],
    ['a number among the args', { command: 'srv', args: ['--port', 8080] }, '"args" must be a list of strings (item 2 is a number)'],
    ['env that is a list', { command: 'srv', env: ['A=1'] }, '"env" must be an object of NAME: "value" pairs'],
    [
      'invalid env names',
      { command: 'srv', env: { GOOD: '1', 'MY-VAR': '2', '1ST': '3' } },
      'Invalid environment variable names "MY-VAR", "1ST": use letters, digits and _ only, not starting with a digit',
    ],
    [
      'one invalid env name',
      { command: 'srv', env: { 'a b': '1' } },
      'Invalid environment variable name "a b": use letters, digits and _ only, not starting with a digit',
    ],
    [
      'env values that are not strings',
      { command: 'srv', env: { PORT: 8080, DEBUG: true } },
      'Environment variable values must be strings in quotes (PORT is a number, DEBUG is a boolean)',
    ],
    ['a cwd that is not a string', { command: 'srv', cwd: 1 }, '"cwd" must be a string'],
    ['a non-object entry', 'npx -y pkg', 'Not a server definition (expected an object with a command or a url)'],
  ])('skips %s', (_what, entry, reason) => {
    expect(only(claude({ s: entry }))).toEqual({ name: 's', action: 'skip', reason });
  });

  it('skips what ServerInputSchema rejects, with its message', () => {
    expect(only(claude({ ['n'.repeat(101)]: { command: 'x' } })).reason).toBe('name: At most 100 characters');
    expect(only(claude({ '   ': { command: 'x' } })).reason).toBe('Name is required');
    expect(only(claude({ s: { command: 'x', args: Array(501).fill('a') } })).reason).toMatch(/^args: /);
  });
});

describe('parseImport: text that is not a config', () => {
  it.each([['{}'], ['{"foo": {"bar": 1}}'], ['[]'], ['"mcpServers"'], ['{"mcpServers": []}'], ['{"mcp": {"servers": null}}']])(
    'calls %s unknown',
    (text) => {
      expect(preview(text)).toEqual({ format: 'unknown', entries: [] });
    },
  );

  it('says where JSON is broken, by line and column', () => {
    const error = errorOf('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}');
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe('Invalid JSON at line 4, column 5: expected a comma (,) before this');
    expect(error.data).toEqual([{ path: ['text'], message: error.message, line: 4, column: 5 }]);
  });

  it.each([
    ["{'mcpServers': {}}", "Invalid JSON at line 1, column 2: unexpected 'mcpServers' (JSON strings need double quotes)"],
    // Points at the bad backslash (after an escaped one), not at the string's start.
    [
      '{"mcpServers": {"fs": {"command": "C:\\\\Pro\\gram Files"}}}',
      'Invalid JSON at line 1, column 43: invalid escape in a string (write a backslash as \\\\)',
    ],
    ['{"env": "\\u12"}', 'Invalid JSON at line 1, column 10: invalid \\u escape in a string'],
    ['{"mcpServers": {}', 'Invalid JSON at line 1, column 18: expected a closing brace (})'],
    ['{"a": 1} {"b": 2}', 'Invalid JSON at line 1, column 10: unexpected text after the end of the JSON'],
    ['/* config', 'Invalid JSON at line 1, column 1: comment is not closed (missing */)'],
    ['  \n ', 'The text is empty: paste the contents of a config file'],
  ])('explains %j', (text, message) => {
    expect(errorOf(text).message).toBe(message);
  });

  it('survives absurd nesting', () => {
    expect(errorOf('['.repeat(200_000)).message).toBe('The text is nested too deeply to be a config file');
  });
});
