import os from 'node:os';
import {
  HostCallError,
  MAX_LINK_CHARS,
  McpInstallLinkSchema,
  PROTOCOL_SCHEME,
  type InstallField,
  type InstallSource,
  type McpInstallLink,
} from '@contract';
import { convertEntry } from '../server-config/import/convert-entry';
import type { ServerConfigRepository } from '../server-config/server-config-repository';
import { uniqueServerName } from '../server-fleet/server-handlers';
import { fieldText, missingFields, type InstallKind } from './install-kind';

type LinkSource = Extract<InstallSource, { kind: 'link' }>;

/**
 * Reads `patchbay://install?{url-encoded JSON}` and VS Code's own `vscode:mcp/install?{json}` (the
 * same JSON): it names the server and says how to run or reach it (see `McpInstallLinkSchema`). Any
 * other action, a link without a definition, unreadable JSON or a definition that does not validate
 * is refused with a reason a person can act on.
 */
export function parseInstallLink(link: string): { ok: true; server: McpInstallLink } | { ok: false; reason: string } {
  if (link.length > MAX_LINK_CHARS)
    return { ok: false, reason: `the link is longer than ${MAX_LINK_CHARS.toLocaleString('en-US')} characters` };
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return { ok: false, reason: 'not a valid link' };
  }
  const vscode = /^vscode(-insiders)?:$/i.test(url.protocol);
  const action = `${url.host}${url.pathname}`.replace(/^\/+|\/+$/g, '').toLowerCase();
  if (action !== (vscode ? 'mcp/install' : 'install')) {
    return {
      ok: false,
      reason: `Patchbay links can only install a server (${PROTOCOL_SCHEME}://install?…); this one asks for "${action.slice(0, 60) || 'nothing'}"`,
    };
  }
  const query = url.search.replace(/^\?/, '');
  if (query === '') return { ok: false, reason: 'the link carries no server definition' };
  let json: unknown;
  try {
    json = JSON.parse(decodeURIComponent(query));
  } catch {
    return { ok: false, reason: "the link's server definition is not valid JSON" };
  }
  const parsed = McpInstallLinkSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    );
    return { ok: false, reason: `the server definition is not valid: ${issues.slice(0, 5).join('; ')}` };
  }
  return { ok: true, server: parsed.data };
}

const INPUT_REFERENCE = /\$\{input:([^}]*)\}/g;

/** The link's server, or an `invalid_input` error with the reason. */
function readLink(source: LinkSource): McpInstallLink {
  const parsed = parseInstallLink(source.link);
  if (!parsed.ok) throw new HostCallError('invalid_input', `This link cannot be installed: ${parsed.reason}`);
  return parsed.server;
}

/** Every string of the link that may reference an input, in one list. */
function linkStrings(server: McpInstallLink): string[] {
  return [
    server.command ?? '',
    ...(server.args ?? []),
    ...Object.values(server.env ?? {}),
    server.cwd ?? '',
    server.url ?? '',
    ...Object.values(server.headers ?? {}),
  ];
}

/** The values a link asks for: its declared `inputs`, plus any `${input:id}` it uses without declaring. */
function linkFields(server: McpInstallLink): InstallField[] {
  const used = new Set(linkStrings(server).flatMap((text) => [...text.matchAll(INPUT_REFERENCE)].map((match) => match[1])));
  const declared = new Map((server.inputs ?? []).map((input) => [input.id, input]));
  return [...used].map((id) => {
    const input = declared.get(id);
    return {
      id,
      label: input?.description?.trim() || id,
      kind: 'string',
      required: true,
      secret: input?.password === true,
      ...(input?.default !== undefined && input.password !== true ? { default: input.default } : {}),
    };
  });
}

/**
 * Install links (`patchbay://install?…`, `vscode:mcp/install?…`): the link's `${input:…}` values are
 * asked for in the form, then the definition goes through the same conversion as an imported VS Code
 * entry — so a link can never mean more than an import would. A link comes from outside Patchbay, so
 * "Start it now" starts unticked.
 */
export function createLinkInstaller(repo: ServerConfigRepository): InstallKind<LinkSource> {
  return {
    async plan(source) {
      const server = readLink(source);
      const remote = server.url !== undefined && server.command === undefined;
      return {
        about: {
          title: server.name,
          facts: [
            { label: 'Kind', value: remote ? `Remote server (${server.type === 'sse' ? 'SSE' : 'HTTP'})` : 'Local command' },
            { label: 'From', value: 'an install link' },
          ],
          warnings: ['Install servers only from sources you trust: a local server runs as you, with your files and network.'],
        },
        suggestedName: uniqueServerName(repo, server.name),
        fields: linkFields(server),
        startByDefault: false,
      };
    },

    async build(source, name, values) {
      const link = readLink(source);
      const fields = linkFields(link);
      const byId = new Map(fields.map((field) => [field.id, field]));
      const fill = (text: string) =>
        text.replace(INPUT_REFERENCE, (whole, id: string) => (byId.has(id) ? fieldText(byId.get(id)!, values) : whole));
      const secretKeys = new Set<string>();
      const pairs = (map: Record<string, string> | undefined) =>
        map &&
        Object.fromEntries(
          Object.entries(map).map(([key, value]) => {
            if ([...value.matchAll(INPUT_REFERENCE)].some((match) => byId.get(match[1])?.secret)) secretKeys.add(key);
            return [key, fill(value)];
          }),
        );
      const entry = {
        ...(link.type ? { type: link.type } : {}),
        ...(link.command !== undefined ? { command: fill(link.command), args: (link.args ?? []).map(fill), env: pairs(link.env) } : {}),
        ...(link.cwd !== undefined ? { cwd: fill(link.cwd) } : {}),
        ...(link.url !== undefined ? { url: fill(link.url), headers: pairs(link.headers) } : {}),
      };
      const converted = convertEntry(name, entry, { homeDir: os.homedir(), inputs: new Map() });
      if (!converted.ok) throw new HostCallError('invalid_input', `This link cannot be installed: ${converted.reason}`);
      const server = converted.server;
      const markSecret = <P extends { key: string; secret: boolean }>(list: P[]) =>
        list.map((pair) => (secretKeys.has(pair.key) ? { ...pair, secret: true } : pair));
      return {
        server: { ...server, env: markSecret(server.env), headers: markSecret(server.headers) },
        missing: missingFields(fields, values),
        notes: converted.note ? [converted.note.replace(/^Imported disabled/, 'It will be added disabled')] : [],
      };
    },
  };
}
