/**
 * Redaction for the audit trail. Text goes through the logs area's `Redactor` (the server's secret
 * values and well-known token shapes, one implementation for the whole host); on top of that, JSON
 * values under secret-looking keys (`password`, `api_key`, `GITHUB_TOKEN`…) are replaced whole,
 * since tool arguments are structured and a password in `{"password": "…"}` has no recognisable shape.
 */
import { PATTERNS_ONLY, REDACTED, Redactor } from '../logs/redactor';

/** `PATTERNS_ONLY`: for a server whose secrets are unknown, token shapes only (one for the host). */
export { PATTERNS_ONLY, REDACTED, Redactor };

/** Keys whose (string) values are secrets. */
export const SECRET_KEY =
  /pass(word|wd|phrase)?|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|credential|authorization|^auth$|cookie|session[-_]?id/i;

/** A deep copy of a JSON value with secrets redacted (strings under secret keys replaced whole). */
export function redactValue(value: unknown, redactor: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactor, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = typeof member === 'string' && SECRET_KEY.test(key) ? REDACTED : redactValue(member, redactor, depth + 1);
  }
  return out;
}
