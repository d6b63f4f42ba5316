/**
 * Keeps the address and the browser history in step with the store's route, both ways: the route
 * the app goes to becomes the hash (a new history entry, or in place of the current one), and a hash
 * the user brings (a reload, Back, Forward, a pasted link) becomes the route.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { NavigationState } from '../stores/navigation';
import { formatRoute, parseRoute } from './routes';

/** The browser parts this needs (a test gives its own window). */
export type HistoryWindow = Pick<Window, 'location' | 'history' | 'addEventListener' | 'removeEventListener'>;

/**
 * Reads the current address into the store, then follows both. Returns a function that stops
 * following. The address is written with `history.pushState`/`replaceState`, which fire no
 * `hashchange`, so a change is never read back as a new one.
 */
export function connectHashHistory(store: StoreApi<NavigationState>, win: HistoryWindow = window): () => void {
  const write = (hash: string, mode: 'push' | 'replace') => {
    if (win.location.hash === hash) return;
    const url = `${win.location.pathname}${win.location.search}${hash}`;
    if (mode === 'push') win.history.pushState(null, '', url);
    else win.history.replaceState(win.history.state, '', url);
  };
  const read = () => {
    const { route, problem } = parseRoute(win.location.hash);
    store.getState().go(route, { replace: true, ...(problem ? { notice: problem } : {}) });
    // The address in its canonical form (an empty hash is #/chat, a fallback names where it landed).
    write(formatRoute(store.getState().route), 'replace');
  };

  read();
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.route !== previous.route) write(formatRoute(state.route), state.routeHistory);
  });
  // Back/Forward fire popstate; a typed or pasted hash fires hashchange (and popstate in some browsers).
  const onAddress = () => {
    if (win.location.hash !== formatRoute(store.getState().route)) read();
  };
  win.addEventListener('popstate', onAddress);
  win.addEventListener('hashchange', onAddress);
  return () => {
    unsubscribe();
    win.removeEventListener('popstate', onAddress);
    win.removeEventListener('hashchange', onAddress);
  };
}
