/**
 * Server configurations as text for elsewhere: Patchbay's own versioned JSON (restorable through
 * Import servers), Claude Desktop's `claude_desktop_config.json`, and VS Code's `mcp.json`. Secret
 * values never leave: Patchbay's format lists them as to be filled, Claude Desktop's gets a
 * placeholder to replace, VS Code's an `${input:…}` VS Code asks for.
 */
import type { ExportFormat, ServersExport } from '@contract';
import { BUILT_IN_NODE } from '../server-config/presets';
import { DATA_DIR_VARIABLE, PATCHBAY_EXPORT_VERSION, type ExportedServer } from '../server-config/import/patchbay-format';
import type { StoredEnvVar, StoredServer } from '../server-config/server-config-repository';

const FILE_NAMES: Record<ExportFormat, string> = {
  patchbay: 'patchbay-servers.json',
  'claude-desktop': 'claude_desktop_config.json',
  vscode: 'mcp.json',
};

/** What a Claude Desktop or VS Code user puts in place of a secret. */
export const FILL_IN = (key: string) => `<to be filled: ${key}>`;

export interface ExportContext {
  dataDir: string;
  appVersion: string;
  now: Date;
}

export function exportServers(format: ExportFormat, servers: readonly StoredServer[], context: ExportContext): ServersExport {
  const secretsLeftOut = servers.flatMap((server) =>
    [...server.env, ...server.headers].filter((pair) => pair.sealed).map((pair) => `${server.name}: ${pair.key}`),
  );
  const notes: string[] = [];
  let document: unknown;
  if (format === 'patchbay') {
    document = {
      patchbay: { format: 'servers', version: PATCHBAY_EXPORT_VERSION, exportedAt: context.now.toISOString(), app: context.appVersion },
      servers: servers.map((server) => patchbayEntry(server, context.dataDir)),
    };
  } else {
    const entries = servers.map((server) => {
      if (server.bundleId)
        notes.push(`${server.name} runs the bundle ${server.bundleId} from Patchbay's data directory; it needs Node.js there.`);
      if (server.transport === 'http' && format === 'claude-desktop') {
        notes.push(`${server.name} is a remote server: Claude Desktop adds those under Settings › Connectors.`);
      }
      return [server.name, format === 'vscode' ? vscodeEntry(server) : claudeEntry(server)] as const;
    });
    document =
      format === 'vscode'
        ? { inputs: servers.flatMap(vscodeInputs), servers: Object.fromEntries(entries) }
        : { mcpServers: Object.fromEntries(entries) };
  }
  return {
    format,
    fileName: FILE_NAMES[format],
    text: `${JSON.stringify(document, null, 2)}\n`,
    servers: servers.length,
    secretsLeftOut,
    notes,
  };
}

function patchbayEntry(server: StoredServer, dataDir: string): ExportedServer {
  const portable = (text: string) => (dataDir ? text.split(dataDir).join(DATA_DIR_VARIABLE) : text);
  const pairs = (list: readonly StoredEnvVar[]) =>
    list.map((pair) =>
      pair.sealed ? { key: pair.key, secret: true as const, toBeFilled: true as const } : { key: pair.key, value: portable(pair.value) },
    );
  return {
    name: server.name,
    transport: server.transport,
    command: portable(server.command),
    args: server.args.map(portable),
    env: pairs(server.env),
    cwd: portable(server.cwd),
    url: server.url,
    headers: pairs(server.headers),
    oauthClientId: server.oauthClientId,
    ...(server.oauthClientSecret ? { oauthClientSecret: { toBeFilled: true as const } } : {}),
    enabled: server.enabled,
    initTimeoutMs: server.initTimeoutMs,
    requestTimeoutMs: server.requestTimeoutMs,
    autoRestart: server.autoRestart,
    ...(server.preset ? { preset: server.preset } : {}),
    ...(server.bundleId ? { bundle: { id: server.bundleId, version: '' } } : {}),
  };
}

/** A preset's command as other hosts run it: the npm package through npx. */
function commandFor(server: StoredServer): { command: string; args: string[] } {
  if (server.preset && server.command === BUILT_IN_NODE && server.args.length > 0) {
    return { command: 'npx', args: ['-y', ...server.args] };
  }
  return { command: server.command, args: server.args };
}

function claudeEntry(server: StoredServer): Record<string, unknown> {
  const map = (list: readonly StoredEnvVar[]) =>
    Object.fromEntries(list.map((pair) => [pair.key, pair.sealed ? FILL_IN(pair.key) : pair.value]));
  if (server.transport === 'http') return { url: server.url, ...(server.headers.length ? { headers: map(server.headers) } : {}) };
  const { command, args } = commandFor(server);
  return { command, args, ...(server.env.length ? { env: map(server.env) } : {}), ...(server.enabled ? {} : { disabled: true }) };
}

/** VS Code input id for one secret of one server. */
function inputId(server: StoredServer, key: string): string {
  return `${server.name}-${key}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 100);
}

function vscodeInputs(server: StoredServer) {
  return [...server.env, ...server.headers]
    .filter((pair) => pair.sealed)
    .map((pair) => ({ type: 'promptString', id: inputId(server, pair.key), description: `${server.name}: ${pair.key}`, password: true }));
}

function vscodeEntry(server: StoredServer): Record<string, unknown> {
  const map = (list: readonly StoredEnvVar[]) =>
    Object.fromEntries(list.map((pair) => [pair.key, pair.sealed ? `\${input:${inputId(server, pair.key)}}` : pair.value]));
  if (server.transport === 'http')
    return { type: 'http', url: server.url, ...(server.headers.length ? { headers: map(server.headers) } : {}) };
  const { command, args } = commandFor(server);
  return {
    type: 'stdio',
    command,
    args,
    ...(server.env.length ? { env: map(server.env) } : {}),
    ...(server.cwd ? { cwd: server.cwd } : {}),
  };
}
