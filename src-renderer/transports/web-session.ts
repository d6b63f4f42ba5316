import { SESSION_META_NAME } from '@contract';

const STORAGE_KEY = 'patchbay.session';

/**
 * The tab's WebSocket credential in web mode. A load through the printed URL finds it in a meta tag;
 * it is kept in sessionStorage (scoped to this origin and tab, unlike cookies, which every port of
 * 127.0.0.1 receives) so reloads and host restarts keep working, and the token is scrubbed from the
 * address bar. Returns null when this tab was never opened through the printed URL.
 */
export function takeSessionCredential(doc: Document = document, storage: Storage = sessionStorage): string | null {
  const fromPage = doc.querySelector(`meta[name="${SESSION_META_NAME}"]`)?.getAttribute('content');
  if (fromPage) storage.setItem(STORAGE_KEY, fromPage);
  const url = new URL(doc.location.href);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  return storage.getItem(STORAGE_KEY);
}
