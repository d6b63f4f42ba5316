/**
 * Keeps secrets out of every log stream, export and diagnostics text: the values of the server's
 * environment variables marked secret, well-known API key shapes, and authorization headers.
 * Redaction happens once, when an entry is made, so nothing unredacted is ever stored or sent.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not searched for: replacing every "ab" would destroy the log and hide nothing. */
export const MIN_SECRET_LENGTH = 4;

/** A case-insensitive source for a fixed word, without making the whole pattern case-insensitive. */
const ci = (word: string) => word.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/** `name: value`, `"name":"value"`, `name=value`: group 1 keeps the name and separator. */
const header = (name: string) => String.raw`\b${name}\b["']?\s*[:=]\s*["']?`;

/**
 * Header-like assignments (`Authorization: Bearer x`, `"x-api-key":"x"`, `api_key=x`): the name stays,
 * the value goes. Bearer tokens on their own. Then API key shapes: Anthropic, OpenAI-style `sk-`,
 * GitHub, Slack and Google keys. Values must start like a token, so a JSON schema (`"apiKey": {…}`)
 * is left alone; "Bearer" is matched as written, so prose ("the bearer of…") is too.
 */
const PATTERN_SOURCE = [
  String.raw`(${[header(`(?:${ci('proxy-')})?${ci('authorization')}`), header(ci('x-api-key')), header(`${ci('api')}[_-]?${ci('key')}`)].join('|')})(?:(?:${ci('bearer')}|${ci('basic')}|${ci('token')})\s+)?(?:[A-Za-z0-9._~+/=-]{3,}|\[REDACTED\])`,
  String.raw`(\b(?:Bearer|bearer|BEARER)\s+)[A-Za-z0-9._~+/=-]{16,}`,
  String.raw`\bsk-ant-[A-Za-z0-9_-]{8,}`,
  String.raw`\bsk-[A-Za-z0-9_-]{16,}`,
  String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`,
  String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
  String.raw`\bAIza[0-9A-Za-z_-]{30,}`,
].join('|');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces a pattern match, keeping the header name or scheme the first two alternatives capture. */
function replacePattern(_match: string, header: string | undefined, scheme: string | undefined): string {
  return `${header ?? scheme ?? ''}${REDACTED}`;
}

/**
 * The patterns, compiled once for every redactor: V8 keeps a compiled regular expression's machine
 * code per RegExp object (≈ 2.2 KB each), and every server has its own redactor. Sharing a global
 * RegExp is safe here: `replace` starts it at index 0 and leaves it there, and it runs synchronously.
 */
const PATTERNS = new RegExp(PATTERN_SOURCE, 'g');

/** A redactor for one server's output. Cheap to call on every line. */
export class Redactor {
  private readonly secrets: RegExp | undefined;
  /** Longest secret form searched for: a text cut within this distance of a secret could keep part of it. */
  readonly longestSecret: number;

  /** `secretValues`: the values of the variables marked secret (their JSON-escaped forms are searched too). */
  constructor(secretValues: readonly string[] = []) {
    const forms = new Set<string>();
    for (const value of secretValues) {
      if (value.length < MIN_SECRET_LENGTH) continue;
      forms.add(value);
      // As it appears inside a JSON string (protocol messages, message data).
      forms.add(JSON.stringify(value).slice(1, -1));
    }
    // Longest first, so a secret that contains another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.secrets = sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined;
    this.longestSecret = sorted[0]?.length ?? 0;
  }

  /** The redactor for these secret values: the shared patterns-only one when none is long enough to search for. */
  static forSecrets(secretValues: readonly string[]): Redactor {
    return secretValues.some((value) => value.length >= MIN_SECRET_LENGTH) ? new Redactor(secretValues) : PATTERNS_ONLY;
  }

  redact(text: string): string {
    const withoutSecrets = this.secrets ? text.replace(this.secrets, REDACTED) : text;
    return withoutSecrets.replace(PATTERNS, replacePattern);
  }

  /**
   * How much more than a cap to serialize before redacting and cutting, so that a secret straddling
   * the cut is redacted whole first (a token pattern is assumed shorter than 512 characters).
   */
  get margin(): number {
    return Math.max(512, this.longestSecret + 16);
  }
}

/** The redactor for a server whose secrets are not known (patterns only). */
export const PATTERNS_ONLY = new Redactor();
