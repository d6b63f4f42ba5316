import { isRecord } from './read-jsonc';

/** The fields one part of an entry yields, or why the entry cannot be imported. */
export type FieldsResult<T> = { ok: true; fields: T } | { ok: false; reason: string };

export function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** JSON null reads as "not given": some tools write `"env": null`, meaning none. */
export function orEmpty(value: unknown, empty: unknown): unknown {
  return value === undefined || value === null ? empty : value;
}

/** A value's kind as a reason names it ("a number", "a list"). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** How a `name: "value"` object of an entry (`env`, `headers`) is checked and described. */
export interface StringMapSpec {
  /** The member as the file names it. */
  field: string;
  /** The pairs as one writes them, for "must be an object of … pairs". */
  shape: string;
  namePattern: RegExp;
  /** "environment variable name", "header name". */
  nameNoun: string;
  /** What makes a name valid, said after the list of bad ones. */
  nameRule: string;
  /** "Environment variable values", "Header values". */
  valuesNoun: string;
}

/**
 * The pairs of a `name: "value"` object, in file order, or the reason it is unusable: every bad name
 * and every value that is not a string is listed, so one fix makes the entry importable.
 */
export function readStringMap(value: unknown, spec: StringMapSpec): FieldsResult<[string, string][]> {
  if (!isRecord(value)) return fail(`"${spec.field}" must be an object of ${spec.shape} pairs`);
  const badNames = Object.keys(value).filter((name) => !spec.namePattern.test(name));
  if (badNames.length > 0) {
    const list = badNames.map((name) => JSON.stringify(name)).join(', ');
    return fail(`Invalid ${spec.nameNoun}${badNames.length > 1 ? 's' : ''} ${list}: ${spec.nameRule}`);
  }
  const badValues = Object.entries(value).filter(([, v]) => typeof v !== 'string');
  if (badValues.length > 0) {
    const list = badValues.map(([name, v]) => `${name} is ${kindOf(v)}`).join(', ');
    return fail(`${spec.valuesNoun} must be strings in quotes (${list})`);
  }
  return { ok: true, fields: Object.entries(value as Record<string, string>) };
}
