import type { HostEvent, HostSnapshot } from '../../../src-preload/contract';

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
