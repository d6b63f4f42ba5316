import type { EnvVarInput, ServerConfigView, ServerInput } from '../../../src-preload/contract';
import type { FieldIssue } from '../../ui/call-errors';

/** Shown in place of a stored secret's value, which never reaches the renderer. */
export const SECRET_PLACEHOLDER = '••••••';
/** Keys that look like credentials start out marked secret. */
export const SECRET_KEY_PATTERN = /(KEY|TOKEN|SECRET|PASSWORD|AUTH)/i;

export type FormField = 'name' | 'command' | 'args' | 'env' | 'cwd' | 'initTimeoutMs' | 'requestTimeoutMs' | 'form';
export type FormErrors = Partial<Record<FormField, string>>;

/** Everything the form holds, as typed (strings where the user types). */
export interface ServerDraft {
  name: string;
  command: string;
  /** One argument per line. */
  args: string;
  /** `KEY=value` per line. */
  env: string;
  /** The user's explicit Secret choices by key; unset keys use `defaultSecret`. */
  secretChoices: Record<string, boolean>;
  cwd: string;
  initTimeoutS: string;
  requestTimeoutS: string;
  autoRestart: boolean;
  enabled: boolean;
}

export function draftFrom(config?: ServerConfigView): ServerDraft {
  return {
    name: config?.name ?? '',
    command: config?.command ?? '',
    args: config?.args.join('\n') ?? '',
    env: config?.env.map((v) => `${v.key}=${v.secret ? SECRET_PLACEHOLDER : (v.value ?? '')}`).join('\n') ?? '',
    secretChoices: {},
    cwd: config?.cwd ?? '',
    initTimeoutS: String((config?.initTimeoutMs ?? 60_000) / 1000),
    requestTimeoutS: String((config?.requestTimeoutMs ?? 60_000) / 1000),
    autoRestart: config?.autoRestart ?? true,
    enabled: config?.enabled ?? true,
  };
}

/** One non-blank line of the Environment text. */
export interface EnvLine {
  line: number;
  key: string;
  /** undefined when the line has no `=`. */
  value: string | undefined;
}

export function envLines(text: string): EnvLine[] {
  const lines: EnvLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const eq = raw.indexOf('=');
    lines.push({ line: index + 1, key: (eq < 0 ? raw : raw.slice(0, eq)).trim(), value: eq < 0 ? undefined : raw.slice(eq + 1) });
  });
  return lines;
}

/** Keys whose value is the placeholder of a stored secret: sent without value, the host keeps it. */
export function isKeptSecret(line: EnvLine, stored: ServerConfigView['env']): boolean {
  return line.value === SECRET_PLACEHOLDER && stored.some((v) => v.key === line.key && v.secret);
}

export function defaultSecret(key: string, stored: ServerConfigView['env']): boolean {
  const existing = stored.find((v) => v.key === key);
  return existing ? existing.secret : SECRET_KEY_PATTERN.test(key);
}

export function isSecret(key: string, draft: ServerDraft, stored: ServerConfigView['env']): boolean {
  return draft.secretChoices[key] ?? defaultSecret(key, stored);
}

function seconds(text: string): number | undefined {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
}

/** The ServerInput to send, or the problems the form can see without asking the host. */
export function toServerInput(
  draft: ServerDraft,
  stored: ServerConfigView['env'] = [],
): { input: ServerInput; envLineOf: number[] } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const env: EnvVarInput[] = [];
  const envLineOf: number[] = [];
  const envProblems: string[] = [];
  for (const line of envLines(draft.env)) {
    if (line.value === undefined) {
      envProblems.push(`Line ${line.line}: write KEY=value`);
    } else if (isKeptSecret(line, stored)) {
      env.push({ key: line.key, secret: true });
    } else if (line.value === SECRET_PLACEHOLDER) {
      envProblems.push(`Line ${line.line}: enter the value for ${line.key} (a stored secret stays with its original name)`);
    } else {
      env.push({ key: line.key, value: line.value, secret: isSecret(line.key, draft, stored) });
    }
    envLineOf.push(line.line);
  }
  if (envProblems.length > 0) errors.env = envProblems.join('; ');
  const initTimeoutMs = seconds(draft.initTimeoutS);
  const requestTimeoutMs = seconds(draft.requestTimeoutS);
  if (initTimeoutMs === undefined) errors.initTimeoutMs = 'Enter a number of seconds';
  if (requestTimeoutMs === undefined) errors.requestTimeoutMs = 'Enter a number of seconds';
  if (Object.keys(errors).length > 0 || initTimeoutMs === undefined || requestTimeoutMs === undefined) return { errors };
  const input: ServerInput = {
    name: draft.name.trim(),
    command: draft.command.trim(),
    args: draft.args
      .split(/\r?\n/)
      .map((arg) => arg.trim())
      .filter((arg) => arg !== ''),
    env,
    cwd: draft.cwd.trim(),
    enabled: draft.enabled,
    initTimeoutMs,
    requestTimeoutMs,
    autoRestart: draft.autoRestart,
  };
  return { input, envLineOf };
}

const FIELDS: readonly FormField[] = ['name', 'command', 'args', 'env', 'cwd', 'initTimeoutMs', 'requestTimeoutMs'];

/**
 * Places the host's issues next to their fields. Paths may come prefixed with 'server' (updateServer's
 * input is `{id, server}`); env issues name the line they came from, since the form shows text.
 */
export function errorsFromIssues(issues: FieldIssue[], envLineOf: number[], env: EnvVarInput[]): FormErrors {
  const grouped: Partial<Record<FormField, string[]>> = {};
  for (const issue of issues) {
    const path = issue.path[0] === 'server' ? issue.path.slice(1) : issue.path;
    const head = String(path[0] ?? '');
    const field: FormField = (FIELDS as readonly string[]).includes(head) ? (head as FormField) : 'form';
    let message = issue.message;
    if (field === 'env' && path.length > 1) {
      const index = Number(path[1]);
      const key = env[index]?.key;
      message = `Line ${envLineOf[index] ?? index + 1}${key ? ` (${key})` : ''}: ${issue.message}`;
    } else if (field === 'args' && path.length > 1) {
      message = `Argument ${Number(path[1]) + 1}: ${issue.message}`;
    }
    (grouped[field] ??= []).push(message);
  }
  return Object.fromEntries(Object.entries(grouped).map(([field, messages]) => [field, messages.join('; ')]));
}
