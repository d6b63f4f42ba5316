/**
 * What every sign-in session of one remote server shares, however it signs in — in the browser
 * (`OAuthSession`) or without one, as an application or through the organisation (`AppSession`):
 * the server's name and URL as the user edits them, its tokens (`ServerCredentials`), the hop guard
 * for the OAuth requests Patchbay makes itself, the last 401 challenge, the sign-in state the card
 * shows, and the `RemoteAuth` the transport gets. How a token is obtained or renewed, what a 401 or
 * 403 means, and signing in and out are each kind's own.
 */
import { extractWWWAuthenticateParams, type AuthProvider, type FetchLike } from '@modelcontextprotocol/client';
import type { AuthView, SignInMode, SignInStart } from '@contract';
import type { RemoteAuth, RemoteServerRef } from '../servers/transport/remote-auth';
import { OAuthHopGuard, type LookupAll } from './oauth-hop-guard';
import type { OAuthCredentialStore } from './oauth-store';
import { guardedFetch } from './safe-fetch';
import { ServerCredentials } from './server-credentials';

/** What the transport passes `onUnauthorized` (the SDK does not export the type by name). */
export type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

export interface SignInSessionOptions {
  ref: RemoteServerRef;
  store: OAuthCredentialStore;
  now: () => Date;
  /** The network for the OAuth hops Patchbay makes itself (token requests, refresh); the hop guard checks each. */
  fetch: FetchLike;
  lookup?: LookupAll;
  /** The server's view changed. */
  publish(): void;
  start(): Promise<unknown>;
  stop(): Promise<unknown>;
}

export abstract class SignInSession<Options extends SignInSessionOptions = SignInSessionOptions> {
  protected ref: RemoteServerRef;
  protected readonly credentials: ServerCredentials;
  /** Made by `renew()`, which each kind calls once its own fields exist. */
  protected guard!: OAuthHopGuard;
  protected current: AuthView | undefined;
  /** The last 401 challenge: the scope to ask for and where the resource metadata is. */
  protected challenge: { scope?: string; resourceMetadataUrl?: URL } = {};
  private disposed = false;

  /** `mode` binds the tokens to the way they were obtained (default: in the browser, as you). */
  constructor(
    protected readonly options: Options,
    mode?: (ref: RemoteServerRef) => SignInMode,
  ) {
    this.ref = options.ref;
    this.credentials = new ServerCredentials(
      options.store,
      options.ref.id,
      () => this.ref.url,
      options.now,
      mode && (() => mode(this.ref)),
    );
  }

  /** The token for the next request, or none (the request then goes out without one). */
  abstract token(): Promise<string | undefined>;
  /** A 401: get a new token (the transport then retries once), or throw why the user must act. */
  abstract onUnauthorized(ctx: UnauthorizedContext): Promise<void>;
  /** Errors a send threw, for the sign-in state. */
  abstract observeError(error: unknown): void;
  /** Shows "signed in" for stored tokens (at start, before any request). */
  abstract load(): Promise<void>;
  abstract signIn(): Promise<SignInStart>;
  abstract signOut(): Promise<void>;

  /** Takes the server's current name and URL; a new URL starts over (tokens stay bound to the old one). */
  update(ref: RemoteServerRef): void {
    const moved = ref.url !== this.ref.url;
    this.ref = ref;
    if (moved) {
      this.renew();
      this.challenge = {};
      void this.load();
    }
  }

  remoteAuth(): RemoteAuth {
    const guard = this.guard;
    return {
      authProvider: { token: () => this.token(), onUnauthorized: (ctx) => this.onUnauthorized(ctx) },
      wrapFetch: (next) => this.credentials.fetchWithDpop(guardedFetch(next, guard), this.ref.name),
      observeError: (error) => this.observeError(error),
    };
  }

  view(): AuthView | undefined {
    return this.current;
  }

  dispose(): void {
    this.disposed = true;
  }

  /** Keeps what a 401's `WWW-Authenticate` says, each part until a later challenge says otherwise. */
  protected noteChallenge(ctx: UnauthorizedContext): void {
    const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(ctx.response);
    this.challenge = {
      scope: scope ?? this.challenge.scope,
      resourceMetadataUrl: resourceMetadataUrl ?? this.challenge.resourceMetadataUrl,
    };
  }

  /** A fresh hop guard (at start, when the URL changes; the browser kind also after sign-out). */
  protected renew(): void {
    this.guard = new OAuthHopGuard({ serverName: this.ref.name, serverUrl: new URL(this.ref.url), lookup: this.options.lookup });
  }

  protected setView(view: AuthView | undefined): void {
    if (JSON.stringify(view) === JSON.stringify(this.current)) return;
    this.current = view;
    if (!this.disposed) this.options.publish();
  }
}
