/**
 * A call's arguments as its audit row holds them: the digest (sha-256 of their canonical JSON, which
 * pins the call) and the redacted JSON (what the Audit tab shows).
 *
 * Why not simply `argsDigest(args)` and `JSON.stringify(redactValue(args))`: that is a sorted copy,
 * a redacted copy and two serialisations of the same arguments on every call. What a model sends is
 * usually small, its keys already in order and free of secrets; for such arguments the canonical
 * JSON, the plain JSON and the redacted JSON are one text, so one walk that checks this (copying
 * nothing) and one `JSON.stringify` give both fields. Anything else takes the two-copy path, so the
 * row is the same text either way (audit-args.test.ts compares them).
 */
import { redactValue, SECRET_KEY, type Redactor } from '../audit/redact';
import { argsDigest, digestOfCanonicalJson } from '../tool-definition/definition';

/** The two args fields of an audit decision row. */
export interface AuditArgs {
  argsDigest: string;
  /** Redacted JSON. */
  argsJson: string;
}

/** `redactValue` stops descending below this depth (copies the rest as is); the check does not go there. */
const REDACT_DEPTH = 64;

export function auditArgs(args: Record<string, unknown>, redactor: Redactor): AuditArgs {
  if (serialisesAsIs(args, redactor, 0)) {
    const json = JSON.stringify(args);
    return { argsDigest: digestOfCanonicalJson(json), argsJson: json };
  }
  return { argsDigest: argsDigest(args), argsJson: JSON.stringify(redactValue(args, redactor)) };
}

/**
 * True when `JSON.stringify(value)` is already its canonical JSON and its redacted JSON: only JSON
 * values (no `undefined`, functions or class instances), every object's keys in sorted order, and
 * no string the redaction would change (a secret shape, or any string under a secret-looking key).
 */
function serialisesAsIs(value: unknown, redactor: Redactor, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return redactor.redact(value) === value;
    case 'number':
    case 'boolean':
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= REDACT_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!serialisesAsIs(item, redactor, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    // An own `__proto__` (JSON.parse makes one) is lost by the copies' assignment: only they say what the row holds.
    if (!Object.hasOwn(value, key) || key === '__proto__') return false;
    // Keys out of `Array.prototype.sort` order: canonical JSON sorts them, the plain text does not.
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'string' && SECRET_KEY.test(key)) return false;
    if (!serialisesAsIs(member, redactor, depth + 1)) return false;
  }
  return true;
}
