/**
 * A stand-in for the system browser, for tests and the conformance runner: it follows the
 * authorization server's redirects (an authorization server that approves without a page, as test
 * servers do) until one points at the sign-in's loopback redirect URI, then requests that, so the real
 * loopback listener completes the sign-in. It never runs scripts or shows pages.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { REDIRECT_STATUSES } from './safe-fetch';

/** How one visit went. */
export interface HeadlessVisit {
  authorizationUrl: string;
  /** Every URL requested, in order. */
  hops: string[];
  /** The loopback listener's answer, when the visit got that far. */
  callbackStatus?: number;
  callbackPage?: string;
  /** Why the visit stopped short of the callback. */
  error?: string;
}

export interface HeadlessBrowserOptions {
  fetch?: FetchLike;
  /** Redirects followed before giving up (default 10). */
  maxHops?: number;
}

/** Visits an authorization URL and delivers the redirect to its `redirect_uri`. Never rejects. */
export async function visitAuthorizationUrl(authorizationUrl: string, options: HeadlessBrowserOptions = {}): Promise<HeadlessVisit> {
  const fetchFn = options.fetch ?? fetch;
  const visit: HeadlessVisit = { authorizationUrl, hops: [] };
  try {
    const redirectUri = new URL(authorizationUrl).searchParams.get('redirect_uri');
    if (!redirectUri) throw new Error('the authorization URL has no redirect_uri');
    const callback = new URL(redirectUri);
    let current = new URL(authorizationUrl);
    for (let hop = 0; hop <= (options.maxHops ?? 10); hop++) {
      visit.hops.push(current.href);
      const response = await fetchFn(current, { redirect: 'manual' });
      if (current.origin === callback.origin && current.pathname === callback.pathname) {
        visit.callbackStatus = response.status;
        visit.callbackPage = await response.text();
        return visit;
      }
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) {
        const body = (await response.text()).slice(0, 200);
        throw new Error(`${current.host} answered ${response.status} instead of redirecting: ${body}`);
      }
      await response.body?.cancel().catch(() => undefined);
      current = new URL(location, current);
    }
    throw new Error('too many redirects');
  } catch (error) {
    visit.error = error instanceof Error ? error.message : String(error);
    return visit;
  }
}

/** An `openExternal` for the OAuth area that visits headlessly; `visits` lets a test await them. */
export interface HeadlessBrowser {
  /** Starts a visit and resolves at once, as opening the system browser does. */
  open(url: string): Promise<void>;
  /** Every visit started so far. */
  readonly visits: Array<Promise<HeadlessVisit>>;
  /** The authorization URLs opened so far. */
  readonly opened: string[];
}

export function createHeadlessBrowser(options: HeadlessBrowserOptions = {}): HeadlessBrowser {
  const visits: Array<Promise<HeadlessVisit>> = [];
  const opened: string[] = [];
  return {
    visits,
    opened,
    open: async (url) => {
      opened.push(url);
      visits.push(visitAuthorizationUrl(url, options));
    },
  };
}
