import { lazy, useState, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A part of the renderer that the first paint does not need, in its own chunk (Vite splits at every
 * dynamic `import()`). Returns the `React.lazy` component (render it inside `<Suspense>`) and a
 * `preload` that starts fetching the chunk without rendering it: the shell calls the preloads once
 * the first paint is done, so a page or dialog opened later rarely waits.
 *
 * The chunks are ordinary same-origin module scripts, so the strict CSP (`script-src 'self'`) holds.
 */
export interface LazyPart<P> {
  Component: LazyExoticComponent<ComponentType<P>>;
  preload(): Promise<unknown>;
  /** Whether the chunk has arrived (for a stand-in shown until then, see `useLoaded`). */
  loaded(): boolean;
  /** Calls `listener` once the chunk has arrived; returns how to stop listening. */
  subscribe(listener: () => void): () => void;
}

export function lazyPart<P>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let arrived = false;
  const listeners = new Set<() => void>();
  // One fetch shared by `preload` and the first render; a failed fetch is tried again next time.
  const once = () =>
    (loading ??= load().then(
      (component) => {
        arrived = true;
        for (const listener of listeners) listener();
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return {
    Component: lazy(async () => ({ default: await once() })),
    preload: once,
    loaded: () => arrived,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Whether `part`'s chunk has arrived; re-renders when it does (it is not fetched by this). */
export function useLoaded(part: Pick<LazyPart<unknown>, 'loaded' | 'subscribe'>): boolean {
  return useSyncExternalStore(part.subscribe, part.loaded);
}

/**
 * Whether to mount a dialog that is a lazy part: from its first opening on (its chunk is fetched then
 * if the idle preload has not done it yet), and kept mounted after, so it closes as a dialog should
 * (focus back where it was) rather than vanishing.
 */
export function useMountedOnceOpen(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
