import { ENV_KEY_PATTERN, ServerInputSchema, type ServerInputParsed } from '../../../../src-preload/contract';
import { isRecord, own } from './read-jsonc';
import { VariableResolver, type ImportedEnvVar, type PromptInput } from './variables';

/** One entry of a config file, turned into a server Patchbay can add, or the reason it cannot. */
export type ConvertedEntry = { ok: true; server: ServerInputParsed; note?: string } | { ok: false; reason: string };

/** What every entry of one file shares. */
export interface EntryContext {
  homeDir: string;
  /** VS Code's `inputs`, by id (empty for other formats). */
  inputs: ReadonlyMap<string, PromptInput>;
}

const REMOTE = 'Remote (HTTP) servers are not supported yet';
/** Transport names Claude Code, Cursor and VS Code use for remote servers. */
const REMOTE_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamableHttp', 'ws', 'websocket']);

/**
 * Converts one `name: { command, args, env, … }` entry (Claude Desktop, Cursor or VS Code) into a
 * validated stdio server. Anything it cannot import faithfully is refused with a reason rather than
 * guessed at: a half-right server that starts anyway is worse than one the user adds by hand.
 * Names are not checked here; duplicates are a matter for the whole file.
 */
export function convertEntry(name: string, raw: unknown, context: EntryContext): ConvertedEntry {
  if (!isRecord(raw)) return skip('Not a server definition (expected an object with a command)');

  const type = own(raw, 'type');
  if (type !== undefined && type !== 'stdio') {
    return skip(typeof type === 'string' && REMOTE_TYPES.has(type) ? REMOTE : `Unsupported server type ${JSON.stringify(type)}`);
  }
  // An explicit "stdio" wins over a stray url; otherwise a url (Windsurf: serverUrl) means remote.
  if (type === undefined && (own(raw, 'url') !== undefined || own(raw, 'serverUrl') !== undefined)) return skip(REMOTE);
  // Patchbay cannot read the file, and importing without its variables would start a broken server.
  if (own(raw, 'envFile') !== undefined) {
    return skip('Uses envFile, which is not supported: copy its variables into "env" and paste again');
  }

  const command = own(raw, 'command');
  if (command === undefined || command === null || (typeof command === 'string' && command.trim() === '')) return skip('No command to run');
  if (typeof command !== 'string') return skip('"command" must be a string');

  const args = orEmpty(own(raw, 'args'), []);
  if (!Array.isArray(args)) return skip('"args" must be a list of strings');
  const badArg = args.findIndex((arg) => typeof arg !== 'string');
  if (badArg >= 0) return skip(`"args" must be a list of strings (item ${badArg + 1} is ${kindOf(args[badArg])})`);

  const env = orEmpty(own(raw, 'env'), {});
  if (!isRecord(env)) return skip('"env" must be an object of NAME: "value" pairs');
  const badKeys = Object.keys(env).filter((key) => !ENV_KEY_PATTERN.test(key));
  if (badKeys.length > 0) {
    const list = badKeys.map((key) => JSON.stringify(key)).join(', ');
    return skip(`Invalid environment variable name${badKeys.length > 1 ? 's' : ''} ${list}: use letters, digits and _ only, not starting with a digit`);
  }
  const badValues = Object.entries(env).filter(([, value]) => typeof value !== 'string');
  if (badValues.length > 0) {
    const list = badValues.map(([key, value]) => `${key} is ${kindOf(value)}`).join(', ');
    return skip(`Environment variable values must be strings in quotes (${list})`);
  }

  const cwd = orEmpty(own(raw, 'cwd'), '');
  if (typeof cwd !== 'string') return skip('"cwd" must be a string');

  const variables = new VariableResolver(context.homeDir, context.inputs);
  const envVars: ImportedEnvVar[] = Object.entries(env as Record<string, string>).map(([key, value]) => variables.envVar(key, value));
  // Cline, Windsurf and others mark switched-off servers so; importing one enabled would start it.
  const disabledInFile = own(raw, 'disabled') === true;
  const candidate = {
    name,
    command: variables.expand(command, 'command'),
    args: (args as string[]).map((arg) => variables.expand(arg, 'args')),
    env: envVars,
    cwd: variables.expand(cwd, 'cwd'),
    enabled: !variables.needsAttention && !disabledInFile,
  };

  const parsed = ServerInputSchema.safeParse(candidate);
  if (!parsed.success) return skip(describeIssues(parsed.error.issues, envVars));
  const note = variables.note() ?? (disabledInFile ? 'Imported disabled, as it is in the file' : undefined);
  return { ok: true, server: parsed.data, ...(note ? { note } : {}) };
}

function skip(reason: string): ConvertedEntry {
  return { ok: false, reason };
}

/** JSON null reads as "not given": some tools write `"env": null`, meaning none. */
function orEmpty(value: unknown, empty: unknown): unknown {
  return value === undefined || value === null ? empty : value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Zod's issues as one sentence, naming fields as the file does (`args item 2`, `env API_KEY`). */
function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[], env: ImportedEnvVar[]): string {
  return issues
    .map((issue) => {
      const [field, index] = issue.path;
      let where = String(field ?? 'entry');
      if (field === 'args' && typeof index === 'number') where = `args item ${index + 1}`;
      if (field === 'env' && typeof index === 'number') where = `env ${env[index]?.key ?? index + 1}`;
      // "Name is required" says where already; "At most 100 characters" does not.
      return issue.message.toLowerCase().startsWith(where.toLowerCase()) ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
