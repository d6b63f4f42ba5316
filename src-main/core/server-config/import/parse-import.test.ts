import { describe, expect, it } from 'vitest';
import { HostCallError, type ImportPreview, type ServerInputParsed } from '../../../../src-preload/contract';
import { parseImport } from './parse-import';

const HOME = '/home/ada';
const WEBSOCKET = "WebSocket servers are not supported (MCP's remote transport is HTTP): use the server's HTTP URL if it has one";

function preview(text: string, existing: string[] = []): ImportPreview {
  return parseImport(text, { existingNames: new Set(existing), homeDir: HOME });
}

/** A server as ServerInputSchema fills it in. */
function server(fields: Pick<ServerInputParsed, 'name' | 'command'> & Partial<ServerInputParsed>): ServerInputParsed {
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
    oauthIssuer: '',
    idpIssuer: '',
    idpTokenEndpoint: '',
    idpClientId: '',
    idpIdTokenCommand: '',
    enabled: true,
    initTimeoutMs: 60_000,
    requestTimeoutMs: 60_000,
    autoRestart: true,
    ...fields,
  };
}

/** A remote server as ServerInputSchema fills it in. */
function remote(fields: Pick<ServerInputParsed, 'name' | 'url'> & Partial<ServerInputParsed>): ServerInputParsed {
  return server({ transport: 'http', command: '', ...fields });
}

/** The error parseImport throws for text that is not JSON. */
function errorOf(text: string): HostCallError {
  try {
    preview(text);
  } catch (error) {
    expect(error).toBeInstanceOf(HostCallError);
    return error as HostCallError;
  }
  throw new Error('expected parseImport to throw');
}

/** Wraps entries in Claude Desktop's shape. */
function claude(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

function only(text: string, existing: string[] = []) {
  const { entries } = preview(text, existing);
  expect(entries).toHaveLength(1);
  return entries[0];
}

describe('parseImport: Claude Desktop', () => {
  it('imports a real claude_desktop_config.json in file order, remote entry included', () => {
    const text = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ada/Desktop", "/Users/ada/Downloads"]
    },
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_exampleExample123", "GITHUB_API_URL": "https://api.github.com" }
    },
    "linear": { "url": "https://mcp.linear.app/sse" }
  },
  "globalShortcut": ""
}`;
    expect(preview(text)).toEqual({
      format: 'claude-desktop',
      entries: [
        {
          name: 'filesystem',
          action: 'import',
          server: server({
            name: 'filesystem',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/ada/Desktop', '/Users/ada/Downloads'],
          }),
        },
        {
          name: 'github',
          action: 'import',
          server: server({
            name: 'github',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: [
              // The name looks secret: the value is kept, to be stored encrypted.
              { key: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: 'ghp_exampleExample123', secret: true },
              { key: 'GITHUB_API_URL', value: 'https://api.github.com', secret: false },
            ],
          }),
        },
        { name: 'linear', action: 'import', server: remote({ name: 'linear', url: 'https://mcp.linear.app/sse' }) },
      ],
    });
  });

  it('keeps the file order even for integer-like names, and reads a "__proto__" name as a name', () => {
    // Written out: JSON.stringify would itself move "2" first.
    const text = '{"mcpServers": {"b": {"command": "b"}, "2": {"command": "two"}, "__proto__": {"command": "p"}}}';
    expect(preview(text).entries.map((entry) => [entry.name, entry.action])).toEqual([
      ['b', 'import'],
      ['2', 'import'],
      ['__proto__', 'import'],
    ]);
  });

  it('never reads keys an entry inherits through "__proto__"', () => {
    expect(only('{"mcpServers": {"x": {"__proto__": {"command": "evil"}}}}')).toEqual({
      name: 'x',
      action: 'skip',
      reason: 'No command to run',
    });
    expect(preview('{"__proto__": {"mcpServers": {"x": {"command": "evil"}}}}')).toEqual({ format: 'unknown', entries: [] });
  });

  it('imports an entry disabled in the file disabled, and takes null args/env as none', () => {
    expect(only(claude({ old: { command: 'uvx', args: null, env: null, disabled: true } }))).toEqual({
      name: 'old',
      action: 'import',
      reason: 'Imported disabled, as it is in the file',
      server: server({ name: 'old', command: 'uvx', enabled: false }),
    });
  });

  it('reads ${…} in any format: fills ${userHome}, leaves the rest and imports disabled', () => {
    expect(only(claude({ n: { command: 'node', args: ['${userHome}/x.js', '${HOME}/y'] } }))).toEqual({
      name: 'n',
      action: 'import',
      reason: 'Imported disabled: replace ${HOME} (in args) before enabling',
      server: server({ name: 'n', command: 'node', args: [`${HOME}/x.js`, '${HOME}/y'], enabled: false }),
    });
  });
});

describe('parseImport: Cursor', () => {
  it('recognises Cursor by its keys, imports remote entries and skips envFile ones', () => {
    const text = `{
  "mcpServers": {
    "postgres": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/mydb"]
    },
    "stripe": { "command": "npx", "args": ["-y", "@stripe/mcp"], "envFile": "\${workspaceFolder}/.env" },
    "context7": { "url": "https://mcp.context7.com/mcp", "headers": { "CONTEXT7_API_KEY": "abc" } },
    "sentry": { "type": "sse", "url": "https://mcp.sentry.dev/sse" }
  }
}`;
    expect(preview(text)).toEqual({
      format: 'cursor',
      entries: [
        {
          name: 'postgres',
          action: 'import',
          server: server({
            name: 'postgres',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/mydb'],
          }),
        },
        { name: 'stripe', action: 'skip', reason: 'Uses envFile, which is not supported: copy its variables into "env" and paste again' },
        {
          name: 'context7',
          action: 'import',
          server: remote({
            name: 'context7',
            url: 'https://mcp.context7.com/mcp',
            headers: [{ key: 'CONTEXT7_API_KEY', value: 'abc', secret: true }],
          }),
        },
        // The host tells Streamable HTTP from the old HTTP+SSE when it connects.
        { name: 'sentry', action: 'import', server: remote({ name: 'sentry', url: 'https://mcp.sentry.dev/sse' }) },
      ],
    });
  });

  it('refuses transports it does not know', () => {
    expect(only(claude({ x: { type: 'carrier-pigeon', command: 'coo' } })).reason).toBe('Unsupported server type "carrier-pigeon"');
  });
});

describe('parseImport: VS Code', () => {
  const mcpJson = `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "github_token",
      "description": "GitHub Personal Access Token",
      "password": true,
    },
    { "type": "promptString", "id": "org", "description": "Organisation" },
    { "type": "promptString", "id": "api_token", "password": true },
  ],
  "servers": {
    /* Reads the user's notes */
    "notes": {
      "type": "stdio",
      "command": "node",
      "args": ["\${userHome}/mcp/notes/index.js", "--dir", "\${userHome}/notes"],
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${input:github_token}", "GITHUB_ORG": "\${input:org}" },
    },
    "project-tools": {
      "command": "npx",
      "args": ["-y", "project-tools", "\${workspaceFolder}"],
      "cwd": "\${workspaceFolder}",
      "env": { "LOG_LEVEL": "debug", "SEARCH_HEADER": "Bearer \${input:api_token}" },
    },
    "remote-docs": { "type": "http", "url": "https://example.com/mcp" },
  },
}`;

  it('imports mcp.json with comments, trailing commas, inputs and variables', () => {
    expect(preview(mcpJson)).toEqual({
      format: 'vscode',
      entries: [
        {
          name: 'notes',
          action: 'import',
          server: server({ name: 'notes', command: 'node', args: [`${HOME}/mcp/notes/index.js`, '--dir', `${HOME}/notes`] }),
        },
        {
          name: 'github',
          action: 'import',
          reason:
            'Imported disabled: set GITHUB_PERSONAL_ACCESS_TOKEN (GitHub Personal Access Token), GITHUB_ORG (Organisation) before enabling',
          server: server({
            name: 'github',
            command: 'docker',
            args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
            env: [
              { key: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true },
              { key: 'GITHUB_ORG', value: '', secret: false },
            ],
            enabled: false,
          }),
        },
        {
          name: 'project-tools',
          action: 'import',
          reason:
            'Imported disabled: set SEARCH_HEADER (as "Bearer <api_token>") and replace ${workspaceFolder} (in args, cwd) before enabling',
          server: server({
            name: 'project-tools',
            command: 'npx',
            args: ['-y', 'project-tools', '${workspaceFolder}'],
            cwd: '${workspaceFolder}',
            env: [
              { key: 'LOG_LEVEL', value: 'debug', secret: false },
              { key: 'SEARCH_HEADER', secret: true },
            ],
            enabled: false,
          }),
        },
        { name: 'remote-docs', action: 'import', server: remote({ name: 'remote-docs', url: 'https://example.com/mcp' }) },
      ],
    });
  });

  it('never fills ${env:…} from the host environment', () => {
    process.env.PATCHBAY_IMPORT_TEST_SECRET = 'host-secret';
    try {
      const text = `{ "servers": { "api": { "command": "api-mcp", "env": { "API_KEY": "\${env:PATCHBAY_IMPORT_TEST_SECRET}" } } } }`;
      expect(only(text)).toEqual({
        name: 'api',
        action: 'import',
        reason:
          "Imported disabled: replace ${env:PATCHBAY_IMPORT_TEST_SECRET} (in API_KEY) before enabling. Values are not copied from this computer's environment",
        server: server({
          name: 'api',
          command: 'api-mcp',
          env: [{ key: 'API_KEY', value: '${env:PATCHBAY_IMPORT_TEST_SECRET}', secret: true }],
          enabled: false,
        }),
      });
    } finally {
      delete process.env.PATCHBAY_IMPORT_TEST_SECRET;
    }
  });

  it('reads settings.json, where servers and inputs sit under "mcp"', () => {
    const text = `{
  "editor.fontSize": 14,
  "mcp": {
    "inputs": [{ "type": "promptString", "id": "pw", "description": "Database password", "password": true }],
    "servers": { "db": { "command": "db-mcp", "env": { "DB_URL": "\${input:pw}" } } }
  }
}`;
    expect(preview(text)).toEqual({
      format: 'vscode',
      entries: [
        {
          name: 'db',
          action: 'import',
          reason: 'Imported disabled: set DB_URL (Database password) before enabling',
          // A password input makes the variable secret even though its name does not look so.
          server: server({ name: 'db', command: 'db-mcp', env: [{ key: 'DB_URL', secret: true }], enabled: false }),
        },
      ],
    });
  });

  it('asks for a value when an input is not declared', () => {
    expect(only('{"servers": {"s": {"command": "s", "env": {"REGION": "${input:region}"}}}}')).toMatchObject({
      action: 'import',
      reason: 'Imported disabled: set REGION before enabling',
      server: { env: [{ key: 'REGION', value: '', secret: false }], enabled: false },
    });
  });
});

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
