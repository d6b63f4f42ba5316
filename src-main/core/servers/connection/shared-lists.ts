/**
 * One copy of each catalog list that several servers send identically.
 *
 * Why: people run the same server more than once — a filesystem server per project folder, a GitHub
 * server per account, a staging and a production instance — and each instance lists exactly the same
 * tools (descriptions, JSON Schemas), resources and prompts. Parsed from JSON, each copy is a tree of
 * fresh objects and strings: server-everything's catalog is ≈ 16 KB of heap, a large server's 100 KB
 * or more. A list equal to one already held is replaced by that one, so N instances cost one catalog,
 * and what is derived from its definitions (compiled argument validators, definition hashes, resource
 * search text: WeakMaps keyed by the objects) is derived once.
 *
 * Cost: a list is looked up by a fingerprint (its length, first and last item), and compared in full
 * only with the lists held under the same fingerprint — a list no other server has costs two small
 * serializations, not a serialization of the whole list (10,000 resources: ≈ 10 ms to serialize).
 *
 * Safety: a list is deeply frozen once a second server shares it, so nothing can change one server's
 * view through another's (catalog lists are replaced, never mutated; an attempt would throw). Not
 * before: a list no other server has is that server's alone, and freezing one of 10,000 resources
 * cost ≈ 8 ms on every walk. Lists are held weakly: one that no server holds any more is collected,
 * and its entry with it.
 */
import { createHash } from 'node:crypto';

const held = new Map<string, WeakRef<readonly unknown[]>[]>();
const forget = new FinalizationRegistry<string>((key) => {
  const live = held.get(key)?.filter((ref) => ref.deref() !== undefined) ?? [];
  if (live.length > 0) held.set(key, live);
  else held.delete(key);
});

/** `list`, or the equal list already held for another server (an empty list is returned as is). */
export function sharedList<T>(list: T[]): T[] {
  if (list.length === 0) return list;
  const key = fingerprint(list);
  const candidates = held.get(key);
  for (const ref of candidates ?? []) {
    const other = ref.deref();
    if (other && sameJson(other, list)) {
      deepFreeze(other);
      return other as T[];
    }
  }
  const ref = new WeakRef<readonly unknown[]>(list);
  if (candidates) candidates.push(ref);
  else held.set(key, [ref]);
  forget.register(list, key);
  return list;
}

/** Length, first and last item, hashed (the map keeps 44 characters per list, not two items' JSON). */
function fingerprint(list: readonly unknown[]): string {
  const ends = `${list.length}\n${JSON.stringify(list[0])}\n${JSON.stringify(list[list.length - 1])}`;
  return createHash('sha256').update(ends).digest('base64');
}

/** Equal as JSON values (members in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}
