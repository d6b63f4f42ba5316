/**
 * The fetch every request to a remote server goes through (`RemoteAuth.wrapFetch`). Requests to the
 * MCP server's own origin pass through untouched. Every other request is an OAuth hop: it is checked by
 * the `OAuthHopGuard` first, and redirects are followed here, by hand, so each `Location` is checked
 * the same way before Patchbay contacts it.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { OAuthHopRefusedError, type OAuthHopGuard } from './oauth-hop-guard';

/** HTTP statuses whose `Location` a client follows. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** Wraps `next` so OAuth hops are checked and their redirects followed safely. */
export function guardedFetch(next: FetchLike, guard: OAuthHopGuard): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input));
    if (guard.isServerOrigin(url)) return next(input, init);
    return followSafely(url, init ?? {}, next, guard);
  };
}

async function followSafely(start: URL, init: RequestInit, next: FetchLike, guard: OAuthHopGuard): Promise<Response> {
  // A caller that handles redirects itself (the SDK's same-origin follower) gets each hop back; it
  // calls this fetch again for the next one, which checks it.
  const callerFollows = init.redirect === 'manual';
  let current = start;
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hop = 0; ; hop++) {
    await guard.check(current, hop === 0 ? 'metadata' : 'redirect');
    const response = await next(current, request);
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (callerFollows || location === null) return response;
    if (init.redirect === 'error') throw new TypeError(`${current.host} answered with a redirect, which this request does not follow.`);
    await response.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS)
      throw new OAuthHopRefusedError(`Patchbay stopped following redirects from ${start.host} after ${MAX_REDIRECTS}.`);
    const target = new URL(location, current);
    request = redirectedRequest(request, response.status, current, target);
    current = target;
  }
}

/** The request to send to a redirect's target, as a browser's fetch would change it. */
function redirectedRequest(request: RequestInit, status: number, from: URL, to: URL): RequestInit {
  const method = (request.method ?? 'GET').toUpperCase();
  const headers = new Headers(request.headers);
  let next: RequestInit = { ...request };
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    next = { ...next, method: 'GET', body: undefined };
    headers.delete('content-type');
    headers.delete('content-length');
  }
  // Credentials never follow a redirect to another origin.
  if (from.origin !== to.origin) headers.delete('authorization');
  return { ...next, headers };
}
