import type { HostEvent, HostSnapshot } from '@contract';

/**
 * One area's part of the renderer store: its initial state, how a snapshot fills it, and how host
 * events change it. `app-store.ts` composes the slices; an area adds its slice there in one line.
 */
export interface StoreSlice<S extends object> {
  initial: S;
  fromSnapshot?(snapshot: HostSnapshot): Partial<S>;
  /** Returns the changed part of the state for an event this slice cares about, else undefined. */
  apply?(state: S, event: HostEvent): Partial<S> | undefined;
}

/** The state of a list of slices: the intersection of each slice's own state (`app-store.ts`'s AppState). */
export type SlicesState<Slices extends readonly StoreSlice<object>[]> = UnionToIntersection<
  Slices[number] extends infer Slice ? (Slice extends StoreSlice<infer S> ? S : never) : never
>;

/** `A | B` → `A & B` (the function-parameter trick: parameters are contravariant). */
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;
