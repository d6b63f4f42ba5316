/**
 * The SDK's `OAuthClientProvider` for one server. Two kinds of instance:
 *
 * - interactive: one per sign-in (the user clicked Sign in). It carries that sign-in's loopback
 *   redirect URL and `state`; the PKCE verifier and discovery state live in it, in memory only, because
 *   they must survive just the browser round-trip, which happens within this process. A sign-in that
 *   supersedes another gets its own instance, so the two can never mix verifiers.
 * - silent: one per server, for refreshes. It never registers a client and never hands an
 *   authorization URL to anyone: when a refresh is not enough, the user must click Sign in.
 *
 * Tokens and client registrations go to the sealed store, keyed by the `issuer` the SDK resolved.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  DpopSession,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { isDpopBound, offersDpop } from './dpop-key';
import type { OAuthCredentialStore } from './oauth-store';
import type { ServerCredentials } from './server-credentials';

/** A placeholder redirect URI for silent use (the SDK wants one; no browser ever goes there). */
const DORMANT_REDIRECT_URL = 'http://127.0.0.1/oauth/callback';

/** What an interactive provider needs from its sign-in. */
export interface InteractiveSignIn {
  /** `http://127.0.0.1:<port>/oauth/callback` of the running loopback listener. */
  redirectUrl: string;
  state: string;
  /** Receives the authorization URL; the sign-in decides whether and how to open it. */
  onRedirect(url: URL): void;
}

/** A client the user registered with the authorization server themselves (for servers without DCR or CIMD). */
export interface PreregisteredClient {
  clientId: string;
  clientSecret?: string;
}

export interface PatchbayOAuthProviderOptions {
  serverName: string;
  credentials: ServerCredentials;
  store: OAuthCredentialStore;
  /** An https URL where an organisation hosts Patchbay's client metadata document (CIMD); else DCR. */
  clientMetadataUrl?: string;
  /** The server's pre-registered client, if the user configured one: used instead of any registration. */
  preregistered?: () => Promise<PreregisteredClient | undefined>;
  /** Set for a sign-in; absent for the silent (refresh-only) provider. */
  interactive?: InteractiveSignIn;
}

export class PatchbayOAuthProvider implements OAuthClientProvider {
  /** The issuer the SDK last resolved for this provider. */
  issuer: string | undefined;
  /** Set when the SDK discarded the tokens (refresh refused): the sign-in has expired. */
  tokensInvalidated = false;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private registeredRedirect: string | undefined;
  /** A registration the SDK invalidated during a silent refresh: kept for that call so it does not register anew. */
  private retired: { issuer: string; client: StoredOAuthClientInformation } | undefined;

  constructor(private readonly options: PatchbayOAuthProviderOptions) {}

  get redirectUrl(): string {
    return this.options.interactive?.redirectUrl ?? this.registeredRedirect ?? DORMANT_REDIRECT_URL;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl || undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Patchbay',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
  }

  state(): string {
    return this.options.interactive?.state ?? randomBytes(32).toString('base64url');
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const issuer = this.noteIssuer(ctx);
    if (issuer === undefined) return undefined;
    const fixed = await this.options.preregistered?.();
    if (fixed?.clientId) return { client_id: fixed.clientId, ...(fixed.clientSecret ? { client_secret: fixed.clientSecret } : {}), issuer };
    const client = await this.options.store.client(issuer);
    if (!client && !this.options.interactive) {
      // Silent use never registers (that would replace the registration other servers' tokens belong to).
      if (this.retired?.issuer === issuer) return this.retired.client;
      throw new Error(`Patchbay is no longer registered with ${this.options.serverName}'s authorization server`);
    }
    if (!client) return undefined;
    const redirects = 'redirect_uris' in client ? client.redirect_uris : undefined;
    this.registeredRedirect = redirects?.[0];
    // Registered redirect URIs must match exactly: a listener on another port needs a new registration.
    // (A CIMD client has no stored redirect URIs: its metadata document lists them.)
    if (this.options.interactive && redirects && !redirects.includes(this.options.interactive.redirectUrl)) return undefined;
    // A client ID metadata document URL from an older setting: resolve the client afresh.
    if (this.options.interactive && !redirects && client.client_id.startsWith('https://') && client.client_id !== this.clientMetadataUrl)
      return undefined;
    return client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = this.noteIssuer(ctx) ?? client.issuer;
    if (issuer === undefined) throw new Error('The authorization server is unknown: cannot store the client registration.');
    await this.options.store.saveClient(issuer, client);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const issuer = this.noteIssuer(ctx);
    // No context: the per-request read; the most recently saved token set of this server.
    const record = issuer === undefined ? await this.options.credentials.latest() : await this.options.credentials.forIssuer(issuer);
    return record?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = this.noteIssuer(ctx) ?? tokens.issuer;
    if (issuer === undefined) throw new Error('The authorization server is unknown: cannot store the tokens.');
    await this.options.credentials.save(issuer, tokens, { legacy: this.legacy });
  }

  /** DPoP where the authorization server offers it (its metadata), or where the tokens already are bound; else Bearer. */
  async dpop(): Promise<DpopSession | undefined> {
    return (await wantsDpop(this.discovery, this.options.credentials)) ? this.options.credentials.dpopSession() : undefined;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.options.interactive?.onRedirect(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error(`No sign-in to ${this.options.serverName} is in progress.`);
    return this.verifier;
  }

  /** Discovery (`sign-in-discovery.ts`) has checked the metadata, PKCE included, before this is called. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  /** The server has no protected-resource metadata: it signs in the 2025-03-26 way. */
  get legacy(): boolean {
    return this.discovery !== undefined && this.discovery.resourceMetadata === undefined;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') await this.retireClient();
    if (scope === 'all' || scope === 'tokens') {
      this.options.credentials.forget(this.issuer);
      this.tokensInvalidated = true;
    }
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  private async retireClient(): Promise<void> {
    if (this.issuer === undefined) return;
    const client = await this.options.store.client(this.issuer);
    if (client) this.retired = { issuer: this.issuer, client };
    this.options.store.forgetClient(this.issuer);
  }

  private noteIssuer(ctx: OAuthClientInformationContext | undefined): string | undefined {
    if (ctx?.issuer) this.issuer = ctx.issuer;
    return ctx?.issuer;
  }
}

/** Whether a token request should carry a DPoP proof: the metadata offers it, or (none known) the tokens are bound. */
export async function wantsDpop(discovery: OAuthDiscoveryState | undefined, credentials: ServerCredentials): Promise<boolean> {
  const metadata = discovery?.authorizationServerMetadata;
  return metadata ? offersDpop(metadata) : isDpopBound((await credentials.latest())?.tokens);
}
