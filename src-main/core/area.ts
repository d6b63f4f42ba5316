import type { HostHandlers, HostSnapshot } from '@contract';
import type { ConnectionPlugin } from './server-fleet/connection-plugins';

/**
 * The one shape every host area has as the composition root (host.ts) sees it. The host keeps its
 * areas in one list: it merges their handlers, snapshot parts and connection plugins in list order,
 * starts them in list order and disposes them in reverse. An area that others need while it is made
 * (the fleet needs the logs' redactor) is still made first; only the list says the order of life.
 */
export interface HostArea {
  /** Names the area in the message of a shutdown step that failed. */
  readonly name: string;
  /** The contract methods this area answers (no two areas answer the same one). */
  readonly handlers?: Partial<HostHandlers>;
  /** What the area adds to every server connection (capabilities, handlers, observers). */
  readonly plugin?: ConnectionPlugin;
  /** The area's part of `getSnapshot`. */
  snapshot?(): Partial<HostSnapshot>;
  /** Background work that begins once every area exists (opening stored keys, listing models). */
  start?(): void;
  /** Ends what the area runs: by then every area after it in the list is disposed, none before it. */
  dispose?(): Promise<void> | void;
}

/** `A | B` → `A & B` (the function-parameter trick: parameters are contravariant). */
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;
type HandlersPart<A> = A extends { readonly handlers: infer H } ? H : never;
type SnapshotPart<A> = A extends { snapshot(): infer S } ? S : never;

/** Every area's handlers in one object, typed as the intersection of theirs (so a missing method fails to compile). */
export function mergeHandlers<const Areas extends readonly HostArea[]>(areas: Areas): UnionToIntersection<HandlersPart<Areas[number]>> {
  const merged: Record<string, unknown> = {};
  for (const area of areas) {
    for (const [method, handler] of Object.entries(area.handlers ?? {})) {
      // Two areas answering one method is a wiring mistake: the later one would win silently.
      if (method in merged) throw new Error(`Two host areas answer ${method} (the second is ${area.name})`);
      merged[method] = handler;
    }
  }
  return merged as UnionToIntersection<HandlersPart<Areas[number]>>;
}

/** Every area's snapshot part, asked now, in one object. */
export function mergeSnapshots<const Areas extends readonly HostArea[]>(areas: Areas): UnionToIntersection<SnapshotPart<Areas[number]>> {
  return Object.assign({}, ...areas.map((area) => area.snapshot?.() ?? {})) as UnionToIntersection<SnapshotPart<Areas[number]>>;
}

/** The areas' connection plugins, in list order (later plugins win on the same capability key). */
export function pluginsOf(areas: readonly HostArea[]): ConnectionPlugin[] {
  return areas.flatMap((area) => (area.plugin ? [area.plugin] : []));
}

/**
 * Disposes the areas in reverse list order, each step awaited before the next. A step that fails is
 * reported and the others still run; the first failure is rethrown once every step ran.
 */
export async function disposeInReverse(areas: readonly HostArea[]): Promise<void> {
  const failures: unknown[] = [];
  for (const area of [...areas].reverse()) {
    try {
      // A synchronous dispose is not awaited: the next step runs in the same tick, as it always did.
      const done = area.dispose?.();
      if (done) await done;
    } catch (error) {
      failures.push(error);
      console.error(`[patchbay] disposing the ${area.name} area failed:`, error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
