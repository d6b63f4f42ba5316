/**
 * The fetch every request to a remote server goes through (`RemoteAuth.wrapFetch`). Requests to the
 * MCP server's own origin pass through untouched. Every other request is an OAuth hop: it is checked by
 * the `OAuthHopGuard` first, and redirects are followed here, by hand, so each `Location` is checked
 * the same way before Patchbay contacts it.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { describeNetworkError } from '../servers/transport/remote-transport';
import { OAuthHopRefusedError, type OAuthHopGuard } from './oauth-hop-guard';

/**
 * An OAuth hop that could not be made: the host is down, refuses, or its TLS certificate is bad. A
 * TypeError, like fetch's own, so the SDK's discovery passes it on instead of trying the next URL.
 */
export class OAuthNetworkError extends TypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OAuthNetworkError';
  }
}

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
    const response = await reach(current, request, next, guard);
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location !== null && callerFollows) {
      // The SDK follows same-origin redirects only; another origin would come back to it as an
      // unexplained "HTTP 307: Invalid OAuth error response". Say what happened instead.
      const target = resolveLocation(location, current);
      if (target && target.origin !== current.origin) {
        await response.body?.cancel().catch(() => undefined);
        throw new OAuthHopRefusedError(
          `${guard.describe(current)} redirected to another origin (${target.host}): Patchbay refused to follow it`,
        );
      }
    }
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

/** One request; a network failure becomes an `OAuthNetworkError` that names the host and the cause. */
async function reach(url: URL, init: RequestInit, next: FetchLike, guard: OAuthHopGuard): Promise<Response> {
  try {
    return await next(url, init);
  } catch (error) {
    if (!(error instanceof TypeError) || error instanceof OAuthHopRefusedError || error instanceof OAuthNetworkError) throw error;
    throw new OAuthNetworkError(`Patchbay cannot reach ${guard.describe(url)}: ${networkCause(error)}`, { cause: error });
  }
}

/** TLS failures people meet: an expired, self-signed or wrong-name certificate. */
const TLS_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is signed by an unknown authority',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate is signed by an unknown authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
};

/** "connection refused (ECONNREFUSED)", "its TLS certificate has expired (CERT_HAS_EXPIRED)", … */
function networkCause(error: Error): string {
  const code = errorCode(error);
  if (code && TLS_WORDS[code]) return `${TLS_WORDS[code]} (${code})`;
  const words = describeNetworkError(error)?.replace(/ \(.*\)$/, '');
  if (words && code) return `${words} (${code})`;
  return words ?? (code ? `the request failed (${code})` : 'the request failed');
}

/** The first `code` (ECONNREFUSED, CERT_HAS_EXPIRED…) along the cause chain. */
function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

function resolveLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}
