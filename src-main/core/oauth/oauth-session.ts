/**
 * OAuth for one remote server, across its connections: the bearer token before each request
 * (refreshed shortly before it expires, one refresh at a time), what a 401 or 403 means for the
 * sign-in state, and the interactive sign-in and sign-out the user starts from the server card.
 *
 * A connection never opens a browser: servers connect at app start, and a browser popping up unasked
 * is wrong. When a refresh cannot help, the card says "Sign in" and the user decides.
 */
import { computeScopeUnion, InsufficientScopeError, SdkHttpError, UnauthorizedError, type AuthOptions } from '@modelcontextprotocol/client';
import type { SignInStart } from '@contract';
import { expiredView, scopeText, signedInView } from './auth-view';
import type { LoopbackRedirect } from './loopback-redirect';
import { PatchbayOAuthProvider, type PreregisteredClient } from './oauth-provider';
import type { IssuedTokenRecord } from './oauth-store';
import { guardedFetch } from './safe-fetch';
import { prepareDiscovery } from './sign-in-discovery';
import { describeSignInFailure } from './sign-in-errors';
import { SignInRunner } from './sign-in-runner';
import { SignInSession, type SignInSessionOptions, type UnauthorizedContext } from './sign-in-session';
import { TokenKeeper, type RefreshOutcome } from './token-keeper';

export interface OAuthSessionOptions extends SignInSessionOptions {
  loopback: LoopbackRedirect;
  /** Opens the authorization URL (Electron: the system browser). Absent in web mode: the page opens it. */
  openExternal?: (url: string) => Promise<void>;
  clientMetadataUrl: () => string | undefined;
  /** The client the user registered in advance for this server, if any. */
  preregisteredClient: () => Promise<PreregisteredClient | undefined>;
}

export class OAuthSession extends SignInSession<OAuthSessionOptions> {
  private silent!: PatchbayOAuthProvider;
  /** The scope the last sign-in asked for, and the wider one a 403 asked for since. */
  private requestedScope: string | undefined;
  private stepUpScope: string | undefined;
  private readonly keeper: TokenKeeper;
  private readonly signIns: SignInRunner;

  constructor(options: OAuthSessionOptions) {
    super(options);
    this.renew();
    this.keeper = new TokenKeeper({
      credentials: this.credentials,
      provider: () => this.silent,
      authOptions: (provider) => this.refreshOptions(provider),
      now: options.now,
      onRefreshed: (outcome) => this.refreshed(outcome),
    });
    this.signIns = new SignInRunner({
      serverName: () => this.ref.name,
      flowOptions: () => ({
        serverName: this.ref.name,
        serverUrl: this.ref.url,
        store: options.store,
        credentials: this.credentials,
        loopback: options.loopback,
        fetch: guardedFetch(options.fetch, this.guard),
        guard: this.guard,
        clientMetadataUrl: options.clientMetadataUrl(),
        preregistered: options.preregisteredClient,
        scope: this.stepUpScope ?? this.challenge.scope,
        resourceMetadataUrl: this.challenge.resourceMetadataUrl,
      }),
      openExternal: options.openExternal,
      onFailed: (error) => this.setView({ status: 'signed-out', issuer: this.current?.issuer, error }),
      onSucceeded: () => this.signedIn(),
    });
  }

  /** The stored token, refreshed shortly before it expires (one refresh at a time). */
  token(): Promise<string | undefined> {
    return this.keeper.token();
  }

  /** Shows "signed in" for stored tokens (at start, before any request). */
  async load(): Promise<void> {
    const record = await this.credentials.latest();
    if (record && !this.current) this.setView(signedInView(record));
    else if (!record && this.current?.status === 'signed-in') this.setView(undefined);
  }

  /** A 401: refresh when possible (the transport then retries once); else the user has to sign in. */
  async onUnauthorized(ctx: UnauthorizedContext): Promise<void> {
    this.noteChallenge(ctx);
    const record = await this.credentials.latest();
    if (record?.tokens.refresh_token && (await this.keeper.refresh(true))) return;
    if (!this.signIns.pending) this.showNeedsSignIn(record); // while the user signs in, the card keeps saying so
    throw new UnauthorizedError(`${this.ref.name} needs you to sign in: use Sign in on its card.`);
  }

  /** Errors a send threw: a 403 insufficient_scope means the next sign-in must ask for more. */
  observeError(error: unknown): void {
    if (error instanceof InsufficientScopeError) {
      const granted = this.credentials.peekLatest()?.tokens.scope;
      this.stepUpScope = computeScopeUnion(this.requestedScope, granted, error.requiredScope);
      this.setView({
        status: 'signed-out',
        issuer: this.current?.issuer,
        error: `${this.ref.name} needs more permissions (scope ${scopeText(this.stepUpScope)}): sign in again.`,
      });
    } else if (error instanceof SdkHttpError && error.status === 401 && this.current?.status === 'signed-in') {
      this.setView({ ...this.current, status: 'expired' });
    }
  }

  /** The user clicked Sign in. Returns once the authorization URL is known; the rest runs on. */
  async signIn(): Promise<SignInStart> {
    const previous = this.current;
    this.setView({ status: 'signing-in', issuer: previous?.issuer, account: previous?.account });
    const start = await this.signIns.start();
    this.requestedScope = new URL(start.authorizationUrl).searchParams.get('scope') ?? undefined;
    return start;
  }

  /** Forgets the tokens (the client registration stays) and disconnects the server. */
  async signOut(): Promise<void> {
    this.signIns.cancel('signed out');
    this.credentials.forget();
    this.renew();
    this.stepUpScope = undefined;
    this.setView({ status: 'signed-out' });
    await this.options.stop();
  }

  override dispose(): void {
    super.dispose();
    this.signIns.cancel('Patchbay is shutting down');
  }

  private async signedIn(): Promise<void> {
    this.stepUpScope = undefined;
    const record = await this.credentials.latest();
    this.setView(record ? signedInView(record) : { status: 'signed-out' });
    await this.options.start().catch(() => undefined); // the fleet reports its own failures
  }

  /** "Needs sign-in again" when there were tokens, else "Sign in" (keeping a step-up's explanation). */
  private showNeedsSignIn(record: IssuedTokenRecord | undefined): void {
    if (this.current?.status === 'expired') return;
    if (record) this.setView(expiredView(record));
    else this.setView({ status: 'signed-out', ...(this.current?.error ? { error: this.current.error } : {}) });
  }

  private refreshed(outcome: RefreshOutcome): void {
    if (this.signIns.pending) return; // the sign-in decides what the card says
    if (outcome.renewed) return this.setView(signedInView(outcome.record));
    const { before, failure } = outcome;
    const error =
      failure === undefined
        ? undefined
        : `Could not renew the sign-in to ${this.ref.name}: ${describeSignInFailure(failure, this.ref.name)}.`;
    this.setView({ ...expiredView(before), ...(error ? { error } : {}) });
  }

  /** `auth()` options for a refresh, after discovery when the silent provider has none yet. */
  private async refreshOptions(provider: PatchbayOAuthProvider): Promise<AuthOptions> {
    const fetchFn = guardedFetch(this.options.fetch, this.guard);
    const { resourceMetadataUrl, scope } = this.challenge;
    const legacy = await prepareDiscovery(provider, {
      serverName: this.ref.name,
      serverUrl: this.ref.url,
      resourceMetadataUrl,
      fetch: fetchFn,
      guard: this.guard,
      interactive: false,
    });
    return { serverUrl: this.ref.url, resourceMetadataUrl, scope, fetchFn, skipIssuerMetadataValidation: legacy };
  }

  /** A fresh silent provider and hop guard (at start, after sign-out, when the URL changes). */
  protected override renew(): void {
    super.renew();
    this.silent = new PatchbayOAuthProvider({
      serverName: this.ref.name,
      credentials: this.credentials,
      store: this.options.store,
      preregistered: this.options.preregisteredClient,
    });
  }
}
