import { HOST_METHOD_NAMES, type HostHandlers, type HostSnapshot } from '@contract';
import type { ConnectionPlugin } from './server-fleet/connection-plugins';

/**
 * The one shape every host area has as the composition root (host.ts) sees it. Each area is made by a
 * `create…Area(deps)` function from what the areas made before it give, and joins the host's
 * `AreaList` as it is made: the order they are made in is the order of their life. The list merges
 * their handlers, snapshot parts and connection plugins in that order, starts them in it and disposes
 * them in reverse.
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
function mergeHandlers<const Areas extends readonly HostArea[]>(areas: Areas): UnionToIntersection<HandlersPart<Areas[number]>> {
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
function mergeSnapshots<const Areas extends readonly HostArea[]>(areas: Areas): UnionToIntersection<SnapshotPart<Areas[number]>> {
  return Object.assign({}, ...areas.map((area) => area.snapshot?.() ?? {})) as UnionToIntersection<SnapshotPart<Areas[number]>>;
}

/**
 * The host's areas in the order they are made, which is the order of their life: `add` each area as
 * it is made, then ask the list for the handlers and the snapshot, start it, and dispose it.
 */
export class AreaList {
  private readonly areas: HostArea[] = [];
  /**
   * The areas' connection plugins, in list order (later plugins win on the same capability key). The
   * fleet is made with this array and reads it whenever a server connects; the areas made after the
   * fleet (the ones that work with running servers) add theirs as they are made, all before the first
   * server starts (`Host.startServers`, once the host exists).
   */
  readonly plugins: ConnectionPlugin[] = [];

  add<A extends HostArea>(area: A): A {
    this.areas.push(area);
    if (area.plugin) this.plugins.push(area.plugin);
    return area;
  }

  /** Every contract method, each answered by one area (a method none answers fails the host's making). */
  handlers(getSnapshot: HostHandlers['getSnapshot']): HostHandlers {
    const handlers: Partial<HostHandlers> = { getSnapshot, ...(mergeHandlers(this.areas) as Partial<HostHandlers>) };
    const missing = HOST_METHOD_NAMES.filter((method) => !(method in handlers));
    if (missing.length > 0) throw new Error(`No host area answers ${missing.join(', ')}`);
    return handlers as HostHandlers;
  }

  snapshot(): Partial<HostSnapshot> {
    return mergeSnapshots(this.areas) as Partial<HostSnapshot>;
  }

  /** Background work, in list order, once every area exists. */
  start(): void {
    for (const area of this.areas) area.start?.();
  }

  dispose(): Promise<void> {
    return disposeInReverse(this.areas);
  }
}

/**
 * Disposes the areas in reverse list order, each step awaited before the next. A step that fails is
 * reported and the others still run; the first failure is rethrown once every step ran.
 */
async function disposeInReverse(areas: readonly HostArea[]): Promise<void> {
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
