/**
 * One copy of each catalog list that several servers send identically.
 *
 * Why: people run the same server more than once — a filesystem server per project folder, a GitHub
 * server per account, a staging and a production instance — and each instance lists exactly the same
 * tools (descriptions, JSON Schemas), resources and prompts. Parsed from JSON, each copy is a tree of
 * fresh objects and strings: server-everything's catalog is ≈ 16 KB of heap, a large server's 100 KB
 * or more. A list whose JSON is the same as one already held is replaced by that one, so N instances
 * cost one catalog, and what is derived from its definitions (compiled argument validators, definition
 * hashes, resource search text: WeakMaps keyed by the objects) is derived once.
 *
 * Safety: a shared list is deeply frozen, so nothing can change one server's view through another's
 * (catalog lists are replaced, never mutated; an attempt would throw). Lists are matched by the
 * SHA-256 of their JSON, not merely a cheap hash, so two different lists are never taken for one. The
 * registry holds lists weakly: a list no server holds any more is collected, and its entry with it.
 */
import { createHash } from 'node:crypto';

const held = new Map<string, WeakRef<readonly unknown[]>>();
const forget = new FinalizationRegistry<string>((key) => {
  if (held.get(key)?.deref() === undefined) held.delete(key);
});

/** `list`, or the identical list already held for another server (an empty list is returned as is). */
export function sharedList<T>(list: T[]): T[] {
  if (list.length === 0) return list;
  const key = createHash('sha256').update(JSON.stringify(list)).digest('base64');
  const existing = held.get(key)?.deref();
  if (existing) return existing as T[];
  deepFreeze(list);
  held.set(key, new WeakRef(list));
  forget.register(list, key);
  return list;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}
