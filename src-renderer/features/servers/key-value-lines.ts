import type { EnvVarView } from '@contract';

/** Shown in place of a stored secret's value, which never reaches the renderer. */
export const SECRET_PLACEHOLDER = '••••••';

/** How one kind of key/value list (environment variables, HTTP headers) is written in its textbox. */
export interface PairSyntax {
  separator: '=' | ':';
  /** Header values lose the spaces around them, as HTTP ignores them; environment values are taken literally. */
  trimValue: boolean;
  /** Keys that look like credentials start out marked secret. */
  secretKey: RegExp;
  /** One line as it should be written, for "write KEY=value". */
  example: string;
}

export const ENV_SYNTAX: PairSyntax = {
  separator: '=',
  trimValue: false,
  secretKey: /(KEY|TOKEN|SECRET|PASSWORD|AUTH)/i,
  example: 'KEY=value',
};
/** `Authorization: Bearer …` starts out secret through AUTH. */
export const HEADER_SYNTAX: PairSyntax = {
  separator: ':',
  trimValue: true,
  secretKey: /(KEY|TOKEN|SECRET|PASSWORD|AUTH|COOKIE)/i,
  example: 'Name: value',
};

/** A key/value list as the form holds it: one pair per line, plus the user's explicit Secret choices by key. */
export interface PairsDraft {
  text: string;
  /** Keys not in here use `defaultSecret`. */
  secretChoices: Record<string, boolean>;
}

/** One pair as the host takes it; a secret without `value` keeps its stored value. */
export interface PairInput {
  key: string;
  value?: string;
  secret: boolean;
}

/** The pairs to send, with the textbox line each came from (the host's issues name pairs by index). */
export interface SentPairs {
  pairs: PairInput[];
  lineOf: number[];
}

/** One non-blank line of the textbox. */
export interface PairLine {
  line: number;
  key: string;
  /** undefined when the line has no separator. */
  value: string | undefined;
}

/** The stored pairs as text; a secret shows as the placeholder, which sent back unchanged keeps it. */
export function pairsDraftFrom(stored: readonly EnvVarView[], syntax: PairSyntax): PairsDraft {
  const separator = syntax.separator === ':' ? ': ' : '=';
  return {
    text: stored.map((v) => `${v.key}${separator}${v.secret ? SECRET_PLACEHOLDER : (v.value ?? '')}`).join('\n'),
    secretChoices: {},
  };
}

export function pairLines(text: string, syntax: PairSyntax): PairLine[] {
  const lines: PairLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const at = raw.indexOf(syntax.separator);
    const value = at < 0 ? undefined : raw.slice(at + 1);
    lines.push({ line: index + 1, key: (at < 0 ? raw : raw.slice(0, at)).trim(), value: syntax.trimValue ? value?.trim() : value });
  });
  return lines;
}

/** A line holding the placeholder of a stored secret: sent without value, the host keeps it. */
export function isKeptSecret(line: PairLine, stored: readonly EnvVarView[]): boolean {
  return line.value === SECRET_PLACEHOLDER && stored.some((v) => v.key === line.key && v.secret);
}

export function defaultSecret(key: string, stored: readonly EnvVarView[], syntax: PairSyntax): boolean {
  const existing = stored.find((v) => v.key === key);
  return existing ? existing.secret : syntax.secretKey.test(key);
}

export function isSecret(key: string, draft: PairsDraft, stored: readonly EnvVarView[], syntax: PairSyntax): boolean {
  return draft.secretChoices[key] ?? defaultSecret(key, stored, syntax);
}

/** The pairs to send, or what is wrong with the text (each problem names its line). */
export function toPairInputs(draft: PairsDraft, stored: readonly EnvVarView[], syntax: PairSyntax): SentPairs | { problem: string } {
  const sent: SentPairs = { pairs: [], lineOf: [] };
  const problems: string[] = [];
  for (const line of pairLines(draft.text, syntax)) {
    if (line.value === undefined) {
      problems.push(`Line ${line.line}: write ${syntax.example}`);
    } else if (isKeptSecret(line, stored)) {
      sent.pairs.push({ key: line.key, secret: true });
    } else if (line.value === SECRET_PLACEHOLDER) {
      problems.push(`Line ${line.line}: enter the value for ${line.key} (a stored secret stays with its original name)`);
    } else {
      sent.pairs.push({ key: line.key, value: line.value, secret: isSecret(line.key, draft, stored, syntax) });
    }
    sent.lineOf.push(line.line);
  }
  return problems.length > 0 ? { problem: problems.join('; ') } : sent;
}

/** The host's issue about the pair at `index`, naming the line and key it came from, since the form shows text. */
export function pairIssueMessage(sent: SentPairs | undefined, index: number, message: string): string {
  const key = sent?.pairs[index]?.key;
  return `Line ${sent?.lineOf[index] ?? index + 1}${key ? ` (${key})` : ''}: ${message}`;
}
