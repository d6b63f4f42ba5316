import { describe, expect, it } from 'vitest';
import { claude, HOME, only, preview, remote, server } from './test-support/import-cases';

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
