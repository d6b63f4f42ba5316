import { isRecord, own } from './read-jsonc';

/** One of VS Code's `inputs`: a value VS Code prompts for, which Patchbay asks the user to enter instead. */
export interface PromptInput {
  description?: string;
  password: boolean;
}

/** Environment variable and header names that usually hold secrets; such values are stored encrypted. */
export const SECRET_KEY_PATTERN = /(KEY|TOKEN|SECRET|PASSWORD|PASS|AUTH|CREDENTIAL|COOKIE)/i;

/** How one kind of name/value pair (environment variable, HTTP header) is judged secret. */
export interface PairKind {
  secretName: RegExp;
  /**
   * A value drawn from `${input:…}` or `${env:…}` is secret whatever its name. True for headers,
   * where such a value is nearly always a credential (`Authorization: Bearer ${input:token}`); not for
   * environment variables, where `${input:org}` is as often a plain setting.
   */
  variableIsSecret: boolean;
}

export const ENV_PAIRS: PairKind = { secretName: SECRET_KEY_PATTERN, variableIsSecret: false };
export const HEADER_PAIRS: PairKind = { secretName: SECRET_KEY_PATTERN, variableIsSecret: true };

const VARIABLE = /\$\{([^}]*)\}/g;
const INPUT_REFERENCE = /\$\{input:([^}]*)\}/g;
const ENV_REFERENCE = /\$\{env:[^}]*\}/;

/** An environment variable or header ready for `ServerInputSchema` (a secret without value has yet to be entered). */
export interface ImportedPair {
  key: string;
  value?: string;
  secret: boolean;
}

/**
 * Resolves `${…}` variables in one entry and remembers what the user has to finish by hand.
 *
 * Only `${userHome}` is filled in. `${input:…}` in an environment or header value becomes a value
 * the user must set. Everything else (`${workspaceFolder}`, `${env:…}`, unknown names) stays as written
 * and is reported: Patchbay has no workspace, and reading `${env:…}` from the host would copy this
 * computer's secrets into a server's configuration.
 */
export class VariableResolver {
  /** Env keys and header names waiting for a value → how to describe them. */
  private readonly toSet = new Map<string, string>();
  /** Variables left as written → where they appear. */
  private readonly unresolved = new Map<string, Set<string>>();

  constructor(
    private readonly homeDir: string,
    private readonly inputs: ReadonlyMap<string, PromptInput>,
  ) {}

  /** A string with `${userHome}` filled in; other variables are left and recorded under `place`. */
  expand(value: string, place: string): string {
    return value.replace(VARIABLE, (whole, name: string) => {
      if (name === 'userHome') return this.homeDir;
      const places = this.unresolved.get(whole) ?? new Set<string>();
      this.unresolved.set(whole, places.add(place));
      return whole;
    });
  }

  /**
   * An environment variable or header. A value that uses `${input:…}` is dropped (VS Code would
   * prompt for it); the pair is secret when the input is a password, the name looks secret, or
   * `kind` says any variable makes it so.
   */
  pair(key: string, value: string, kind: PairKind): ImportedPair {
    const ids = [...value.matchAll(INPUT_REFERENCE)].map((match) => match[1]);
    const looksSecret = kind.secretName.test(key) || (kind.variableIsSecret && (ids.length > 0 || ENV_REFERENCE.test(value)));
    if (ids.length === 0) return { key, value: this.expand(value, key), secret: looksSecret };

    const description = (id: string) => this.inputs.get(id)?.description?.trim() || undefined;
    const whole = ids.length === 1 && value.trim() === `\${input:${ids[0]}}`;
    if (whole) {
      const about = description(ids[0]);
      this.toSet.set(key, about ? `${key} (${about})` : key);
    } else {
      // "Bearer ${input:token}": the user needs the shape, not just the name.
      const shape = value.replace(INPUT_REFERENCE, (_whole, id: string) => `<${description(id) ?? id}>`);
      this.toSet.set(key, `${key} (as "${shape}")`);
    }
    const secret = looksSecret || ids.some((id) => this.inputs.get(id)?.password === true);
    return secret ? { key, secret } : { key, value: '', secret };
  }

  /** True when the server must not start until the user has edited it. */
  get needsAttention(): boolean {
    return this.toSet.size > 0 || this.unresolved.size > 0;
  }

  /** The note shown with the entry, or undefined when nothing is left to do. */
  note(): string | undefined {
    if (!this.needsAttention) return undefined;
    const steps: string[] = [];
    if (this.toSet.size > 0) steps.push(`set ${[...this.toSet.values()].join(', ')}`);
    if (this.unresolved.size > 0) {
      const where = [...this.unresolved].map(([variable, places]) => `${variable} (in ${[...places].join(', ')})`);
      steps.push(`replace ${where.join(', ')}`);
    }
    const fromEnv = [...this.unresolved.keys()].some((variable) => variable.startsWith('${env:'));
    const why = fromEnv ? ". Values are not copied from this computer's environment" : '';
    return `Imported disabled: ${steps.join(' and ')} before enabling${why}`;
  }
}

/** VS Code's `inputs` array, by id. Anything malformed is ignored: a reference to it still needs a value. */
export function readInputs(raw: unknown): Map<string, PromptInput> {
  const inputs = new Map<string, PromptInput>();
  if (!Array.isArray(raw)) return inputs;
  for (const item of raw) {
    if (!isRecord(item)) continue;
    const [id, description, password] = [own(item, 'id'), own(item, 'description'), own(item, 'password')];
    if (typeof id !== 'string') continue;
    inputs.set(id, { description: typeof description === 'string' ? description : undefined, password: password === true });
  }
  return inputs;
}
