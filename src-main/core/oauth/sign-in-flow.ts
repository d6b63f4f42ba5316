/**
 * One interactive sign-in, in two legs. `startSignIn` registers the loopback callback, runs the SDK's
 * `auth()` (discovery, registration, PKCE) up to the authorization URL, and checks that URL. The
 * returned `completion` then waits for the browser to come back with the same `state`, exchanges the
 * code (the SDK checks `iss` and sends the PKCE verifier), and tells the browser how it went.
 */
import { randomBytes } from 'node:crypto';
import { auth, validateAuthorizationResponseIssuer, type FetchLike } from '@modelcontextprotocol/client';
import type { LoopbackCallback, LoopbackRedirect } from './loopback-redirect';
import { checkAuthorizationUrl, type OAuthHopGuard } from './oauth-hop-guard';
import { PatchbayOAuthProvider, type PreregisteredClient } from './oauth-provider';
import type { OAuthCredentialStore } from './oauth-store';
import type { ServerCredentials } from './server-credentials';
import { prepareDiscovery } from './sign-in-discovery';
import { AuthorizationDeniedError, signInFailureMessage } from './sign-in-errors';

export interface SignInFlowOptions {
  serverName: string;
  serverUrl: string;
  store: OAuthCredentialStore;
  credentials: ServerCredentials;
  loopback: LoopbackRedirect;
  /** The guarded network for every OAuth hop. */
  fetch: FetchLike;
  /** The hop guard behind `fetch` (discovery teaches it the endpoints' names). */
  guard: OAuthHopGuard;
  clientMetadataUrl?: string;
  preregistered?: () => Promise<PreregisteredClient | undefined>;
  /** The scope to ask for (a 401 challenge's, or the step-up union); undefined lets the SDK choose. */
  scope?: string;
  resourceMetadataUrl?: URL;
}

export interface StartedSignIn {
  authorizationUrl: URL;
  provider: PatchbayOAuthProvider;
  /** Resolves once the tokens are stored; rejects with the reason (see `signInFailureMessage`). */
  completion: Promise<void>;
  /** Stops waiting for the browser (a newer sign-in replaced this one, or the user signed out). */
  cancel(reason: Error): void;
}

/** Runs the first leg; rejects (with nothing left waiting) when no authorization URL could be made. */
export async function startSignIn(options: SignInFlowOptions): Promise<StartedSignIn> {
  const state = randomBytes(32).toString('base64url');
  const { redirectUrl, callback } = await options.loopback.expect(state, await preferredPorts(options));
  let authorizationUrl: URL | undefined;
  const provider = new PatchbayOAuthProvider({
    serverName: options.serverName,
    credentials: options.credentials,
    store: options.store,
    clientMetadataUrl: options.clientMetadataUrl,
    preregistered: options.preregistered,
    interactive: { redirectUrl, state, onRedirect: (url) => (authorizationUrl = url) },
  });
  try {
    const legacy = await prepareDiscovery(provider, { ...discoveryOptions(options), interactive: true });
    // The user asked to sign in: always a fresh authorization (a refresh could not widen the scope anyway).
    await auth(provider, {
      serverUrl: options.serverUrl,
      scope: options.scope,
      resourceMetadataUrl: options.resourceMetadataUrl,
      fetchFn: options.fetch,
      forceReauthorization: true,
      skipIssuerMetadataValidation: legacy,
    });
    if (!authorizationUrl) throw new Error(`${options.serverName}'s authorization server did not ask for a sign-in`);
    checkAuthorizationUrl(authorizationUrl, options.serverName);
  } catch (error) {
    options.loopback.cancel(state, error as Error);
    throw error;
  }
  const completion = finish(callback, provider, options);
  completion.catch(() => undefined); // the session awaits it; never an unhandled rejection before it does
  return {
    authorizationUrl,
    provider,
    completion,
    cancel: (reason) => options.loopback.cancel(state, reason),
  };
}

async function finish(callback: Promise<LoopbackCallback>, provider: PatchbayOAuthProvider, options: SignInFlowOptions): Promise<void> {
  const { params, respond } = await callback;
  try {
    await exchange(params, provider, options);
    respond({ ok: true, title: `Signed in to ${options.serverName} — you can close this tab` });
  } catch (error) {
    respond({
      ok: false,
      title: `Patchbay could not sign in to ${options.serverName}`,
      detail: signInFailureMessage(error, options.serverName),
    });
    throw error;
  }
}

async function exchange(params: URLSearchParams, provider: PatchbayOAuthProvider, options: SignInFlowOptions): Promise<void> {
  const iss = params.get('iss') ?? undefined;
  const error = params.get('error');
  if (error !== null) {
    // An error answer is only believed (and its description shown) when it provably came from the
    // authorization server this sign-in went to (RFC 9207): a mix-up attacker controls its text.
    const metadata = provider.discoveryState()?.authorizationServerMetadata;
    validateAuthorizationResponseIssuer({
      iss,
      expectedIssuer: metadata?.issuer,
      issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
    });
    throw new AuthorizationDeniedError(error, params.get('error_description') ?? undefined);
  }
  const code = params.get('code');
  if (!code) throw new Error('the browser came back without an authorization code');
  await auth(provider, {
    serverUrl: options.serverUrl,
    authorizationCode: code,
    iss,
    fetchFn: options.fetch,
    skipIssuerMetadataValidation: provider.legacy,
  });
}

function discoveryOptions(options: SignInFlowOptions) {
  return {
    serverName: options.serverName,
    serverUrl: options.serverUrl,
    resourceMetadataUrl: options.resourceMetadataUrl,
    fetch: options.fetch,
    guard: options.guard,
  };
}

/**
 * Ports worth listening on, so the redirect URI of an existing registration still matches: first the
 * one registered with the authorization server this server used last, then the others.
 */
async function preferredPorts(options: SignInFlowOptions): Promise<number[]> {
  const lastIssuer = (await options.credentials.latest())?.issuer;
  const clients = await options.store.clients();
  clients.sort((a, b) => Number(b.issuer === lastIssuer) - Number(a.issuer === lastIssuer));
  const ports: number[] = [];
  for (const { client } of clients) {
    for (const uri of 'redirect_uris' in client ? client.redirect_uris : []) {
      const match = /^http:\/\/127\.0\.0\.1:(\d+)\/oauth\/callback$/.exec(uri);
      if (match) ports.push(Number(match[1]));
    }
  }
  return ports;
}
