import { ServerInputSchema, type ServerInputParsed } from '@contract';
import { localFields } from './convert-local';
import { remoteFields, WEBSOCKET_REASON } from './convert-remote';
import { fail } from './field-checks';
import { isRecord, own } from './read-jsonc';
import { VariableResolver, type ImportedPair, type PromptInput } from './variables';

/** One entry of a config file, turned into a server Patchbay can add, or the reason it cannot. */
export type ConvertedEntry = { ok: true; server: ServerInputParsed; note?: string } | { ok: false; reason: string };

/** What every entry of one file shares. */
export interface EntryContext {
  homeDir: string;
  /** VS Code's `inputs`, by id (empty for other formats). */
  inputs: ReadonlyMap<string, PromptInput>;
}

/** Transport names Claude Code, Cursor and VS Code use for servers reached over HTTP (SSE ones included). */
const HTTP_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamableHttp']);
const WEBSOCKET_TYPES = new Set(['ws', 'websocket']);

/**
 * Converts one entry (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf) into a validated
 * server: `{ command, args, env, … }` becomes a local one, `{ type, url, headers }` a remote one.
 * Anything it cannot import faithfully is refused with a reason rather than guessed at: a half-right
 * server that starts anyway is worse than one the user adds by hand. Names are not checked here;
 * duplicates are a matter for the whole file.
 */
export function convertEntry(name: string, raw: unknown, context: EntryContext): ConvertedEntry {
  if (!isRecord(raw)) return fail('Not a server definition (expected an object with a command or a url)');
  const transport = transportOf(raw);
  if (!transport.ok) return transport;

  const variables = new VariableResolver(context.homeDir, context.inputs);
  const fields = transport.kind === 'http' ? remoteFields(raw, variables) : localFields(raw, variables);
  if (!fields.ok) return fields;
  // Cline, Windsurf and others mark switched-off servers so; importing one enabled would start it.
  const disabledInFile = own(raw, 'disabled') === true;
  const candidate = { name, ...fields.fields, enabled: !variables.needsAttention && !disabledInFile };

  const parsed = ServerInputSchema.safeParse(candidate);
  if (!parsed.success) return fail(describeIssues(parsed.error.issues, candidate));
  const note = variables.note() ?? (disabledInFile ? 'Imported disabled, as it is in the file' : undefined);
  return { ok: true, server: parsed.data, ...(note ? { note } : {}) };
}

/** Local or remote, by `type`; without one, a `url` (Windsurf: `serverUrl`) means remote. */
function transportOf(raw: Record<string, unknown>): { ok: true; kind: 'stdio' | 'http' } | { ok: false; reason: string } {
  const type = own(raw, 'type');
  if (type === undefined) {
    const remote = own(raw, 'url') !== undefined || own(raw, 'serverUrl') !== undefined;
    return { ok: true, kind: remote ? 'http' : 'stdio' };
  }
  // An explicit "stdio" wins over a stray url.
  if (type === 'stdio') return { ok: true, kind: 'stdio' };
  if (typeof type === 'string' && HTTP_TYPES.has(type)) return { ok: true, kind: 'http' };
  if (typeof type === 'string' && WEBSOCKET_TYPES.has(type)) return fail(WEBSOCKET_REASON);
  return fail(`Unsupported server type ${JSON.stringify(type)}`);
}

/** Zod's issues as one sentence, naming fields as the file does (`args item 2`, `env API_KEY`, `headers Accept`). */
function describeIssues(
  issues: readonly { path: PropertyKey[]; message: string }[],
  pairs: { env?: ImportedPair[]; headers?: ImportedPair[] },
): string {
  return issues
    .map((issue) => {
      const [field, index] = issue.path;
      let where = String(field ?? 'entry');
      if (field === 'args' && typeof index === 'number') where = `args item ${index + 1}`;
      if ((field === 'env' || field === 'headers') && typeof index === 'number')
        where = `${field} ${pairs[field]?.[index]?.key ?? index + 1}`;
      // "Name is required" says where already; "At most 100 characters" does not.
      return issue.message.toLowerCase().startsWith(where.toLowerCase()) ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
