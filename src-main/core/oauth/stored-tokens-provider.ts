/**
 * Wraps one of the SDK's non-interactive providers (client credentials, private-key JWT, cross-app
 * access) so that what it obtains lands in Patchbay's sealed store rather than in the provider's
 * memory, and so that `auth()` uses the discovery Patchbay made. Everything about the grant itself —
 * the client information (stamped with the expected issuer), the token request, the client
 * authentication, the resource and authorization server it is told — is the SDK provider's.
 */
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { wantsDpop } from './oauth-provider';
import type { TokenRecord } from './oauth-store';
import type { ServerCredentials } from './server-credentials';

export interface StoredTokensProviderOptions {
  inner: OAuthClientProvider;
  credentials: ServerCredentials;
  /** How the tokens were obtained, recorded with them (the account to show, the 2025-03-26 way, the mode). */
  how(): Pick<TokenRecord, 'account' | 'legacy' | 'mode'>;
}

export class StoredTokensProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  readonly saveAuthorizationServerUrl?: (url: string) => void | Promise<void>;
  readonly saveResourceUrl?: (url: string) => void | Promise<void>;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly options: StoredTokensProviderOptions) {
    const { inner } = options;
    this.addClientAuthentication = inner.addClientAuthentication;
    this.saveAuthorizationServerUrl = inner.saveAuthorizationServerUrl?.bind(inner);
    this.saveResourceUrl = inner.saveResourceUrl?.bind(inner);
  }

  /** No redirect: this provider never involves a browser. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.options.inner.clientMetadata;
  }

  clientInformation(
    ctx?: OAuthClientInformationContext,
  ): StoredOAuthClientInformation | undefined | Promise<StoredOAuthClientInformation | undefined> {
    return this.options.inner.clientInformation(ctx);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = ctx?.issuer ? await this.options.credentials.forIssuer(ctx.issuer) : await this.options.credentials.latest();
    return record?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (issuer === undefined) throw new Error('The authorization server is unknown: cannot store the tokens.');
    await this.options.credentials.save(issuer, tokens, this.options.how());
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams | undefined> | undefined {
    return this.options.inner.prepareTokenRequest?.(scope);
  }

  /** DPoP where the authorization server offers it, as for a sign-in in the browser. */
  async dpop(): Promise<DpopSession | undefined> {
    return (await wantsDpop(this.discovery, this.options.credentials)) ? this.options.credentials.dpopSession() : undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  redirectToAuthorization(): never {
    throw new Error('This sign-in never opens a browser.');
  }

  saveCodeVerifier(): void {
    // No authorization code, no PKCE verifier.
  }

  codeVerifier(): never {
    throw new Error('This sign-in has no PKCE verifier.');
  }
}
