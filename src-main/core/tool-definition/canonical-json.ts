/**
 * Canonical JSON: object keys sorted at every level, `undefined` dropped. Two values that mean the
 * same JSON give the same text, so hashes and digests over it are stable across key order.
 */

/** The value with every object's keys sorted (arrays keep their order); `undefined` members are dropped. */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonicalize(item)));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = canonicalize(member);
  }
  return out;
}

/** Compact canonical JSON text (what hashes are computed over). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value)) ?? 'null';
}

/** Canonical JSON, two-space indented: what people read and what definition diffs compare line by line. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(canonicalize(value), null, 2) ?? 'null';
}
