/**
 * Finds a remote server's authorization server before the SDK's `auth()` runs, so that Patchbay, not
 * the SDK's defaults, decides what each answer means and says plainly what is wrong:
 *
 * - protected-resource metadata (RFC 9728) names the authorization server; its URL must be http(s);
 * - no such metadata: the server signs in the 2025-03-26 way — the authorization server is the MCP
 *   server's origin, its metadata at `/.well-known/oauth-authorization-server` there, and without
 *   metadata the default endpoints `/authorize`, `/token` and `/register` at that origin;
 * - authorization-server metadata (RFC 8414 / OpenID discovery) with its issuer checked;
 * - for a sign-in in the browser, PKCE S256 (always sent; see `checkPkce` for when a server is refused).
 *
 * The result is handed to the provider (`saveDiscoveryState`), which `auth()` then uses as is.
 */
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  IssuerMismatchError,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthDiscoveryState,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/client';
import { requireWebUrl, type OAuthHopGuard } from './oauth-hop-guard';

export interface DiscoveryOptions {
  serverName: string;
  serverUrl: string;
  /** Where a 401 challenge said the resource metadata is. */
  resourceMetadataUrl?: URL;
  /** The guarded network. */
  fetch: FetchLike;
  /** Learns the endpoints found, for messages. */
  guard: OAuthHopGuard;
  /** A sign-in in the browser (authorization code + PKCE), rather than an application's grant. */
  interactive: boolean;
}

export interface DiscoveredAuthServer {
  state: OAuthDiscoveryState;
  /** No protected-resource metadata: the 2025-03-26 way (authorization server at the server's origin). */
  legacy: boolean;
}

/** Runs discovery; rejects with an error that names what is wrong (see `describeSignInFailure`). */
export async function discoverAuthServer(options: DiscoveryOptions): Promise<DiscoveredAuthServer> {
  const resourceMetadata = await resourceMetadataOf(options);
  const legacy = resourceMetadata === undefined;
  const named = resourceMetadata?.authorization_servers?.[0];
  const authorizationServerUrl = named
    ? requireWebUrl(named, `the authorization server that ${options.serverName}'s resource metadata names`).href
    : String(new URL('/', options.serverUrl));
  const metadata = await discoverAuthorizationServerMetadata(authorizationServerUrl, {
    fetchFn: options.fetch,
    // RFC 8414 §3.3 wants the metadata's issuer to be the URL it was derived from. The 2025-03-26
    // spec (§2.3.2) instead fixes where the metadata is — the server's origin with the path dropped —
    // whatever the issuer, so an issuer with a path (`https://host/oauth`) is normal there. Only on
    // that legacy path is the SDK's exact check replaced by the one that era allows (same origin).
    skipIssuerValidation: legacy,
  });
  if (legacy && metadata) checkLegacyIssuer(metadata, authorizationServerUrl);
  if (options.interactive) checkPkce(metadata, legacy, options.serverName, authorizationServerUrl);
  options.guard.learnEndpoints(metadata as Record<string, unknown> | undefined);
  return {
    legacy,
    state: {
      authorizationServerUrl,
      ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl.href } : {}),
      ...(resourceMetadata ? { resourceMetadata } : {}),
      ...(metadata ? { authorizationServerMetadata: metadata } : {}),
    },
  };
}

/** The protected-resource metadata, or undefined when the server has none (as the SDK decides it). */
async function resourceMetadataOf(options: DiscoveryOptions): Promise<OAuthProtectedResourceMetadata | undefined> {
  const explicit = options.resourceMetadataUrl
    ? requireWebUrl(options.resourceMetadataUrl.href, `the resource metadata URL ${options.serverName} gave`)
    : undefined;
  try {
    return await discoverOAuthProtectedResourceMetadata(options.serverUrl, { resourceMetadataUrl: explicit }, options.fetch);
  } catch (error) {
    // Network failures and refused hops are TypeErrors and must be reported; anything else (404,
    // a broken document) means no usable metadata, and the SDK then falls back the same way.
    if (error instanceof TypeError) throw error;
    return undefined;
  }
}

/**
 * The 2025-03-26 rule: the authorization server lives at the MCP server's origin. Its metadata may
 * name an issuer with a path there, but never another origin: that would be someone else's server
 * speaking for this one, and tokens and registrations are filed under the issuer.
 */
function checkLegacyIssuer(metadata: AuthorizationServerMetadata, authorizationServerUrl: string): void {
  let origin: string | undefined;
  try {
    origin = new URL(metadata.issuer).origin;
  } catch {
    // not a URL: a mismatch
  }
  if (origin !== new URL(authorizationServerUrl).origin) throw new IssuerMismatchError('metadata', authorizationServerUrl, metadata.issuer);
}

/**
 * Patchbay always sends PKCE S256. Today's spec says a client MUST refuse an authorization server
 * whose metadata does not declare S256, so a server found through resource metadata must declare it.
 * A 2025-03-26 server had no such duty (that spec requires PKCE of every client and server but no
 * declaration): it is refused only when its metadata lists methods without S256; without metadata it
 * gets S256 like everyone else.
 */
function checkPkce(metadata: AuthorizationServerMetadata | undefined, legacy: boolean, serverName: string, asUrl: string): void {
  const methods = metadata?.code_challenge_methods_supported;
  const refused = legacy ? methods !== undefined && !methods.includes('S256') : !methods?.includes('S256');
  if (!refused) return;
  const host = new URL(asUrl).host;
  throw new Error(
    metadata
      ? `${serverName}'s authorization server (${host}) does not declare PKCE (S256) support, so Patchbay will not sign in there`
      : `${serverName}'s authorization server (${host}) publishes no metadata, so it cannot declare PKCE (S256) support; Patchbay will not sign in there`,
  );
}

/** What `prepareDiscovery` seeds: the SDK provider's discovery-state pair. */
export interface DiscoveryHolder {
  discoveryState(): OAuthDiscoveryState | undefined | Promise<OAuthDiscoveryState | undefined>;
  saveDiscoveryState(state: OAuthDiscoveryState): void | Promise<void>;
}

/**
 * Gives `holder` a discovery unless it has one (a sign-in's second leg, a refresh after an earlier
 * one); resolves with whether the server signs in the 2025-03-26 way, for `auth()`'s
 * `skipIssuerMetadataValidation` (the legacy issuer rule was applied here already).
 */
export async function prepareDiscovery(holder: DiscoveryHolder, options: DiscoveryOptions): Promise<boolean> {
  const known = await holder.discoveryState();
  if (known?.authorizationServerUrl) {
    options.guard.learnEndpoints(known.authorizationServerMetadata as Record<string, unknown> | undefined);
    return known.resourceMetadata === undefined;
  }
  const found = await discoverAuthServer(options);
  await holder.saveDiscoveryState(found.state);
  return found.legacy;
}
