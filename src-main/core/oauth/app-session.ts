/**
 * Sign-in without a browser for one remote server: as an application (client credentials), or as
 * the user through the organisation's identity provider. Patchbay gets the token itself — when the
 * server is first contacted, shortly before the token expires, and when the server refuses it (401)
 * — one attempt at a time. A failure puts the reason on the card and stops further attempts for a
 * moment, so a wrong secret does not hammer the authorization server on every request or restart;
 * Sign in, or editing the settings, tries again at once.
 */
import { createHash } from 'node:crypto';
import { UnauthorizedError, type FetchLike } from '@modelcontextprotocol/client';
import { HostCallError, type AuthView, type SignInStart } from '@contract';
import type { RemoteServerRef } from '../servers/transport/remote-auth';
import { signedInView } from './auth-view';
import { obtainAppTokens } from './app-sign-in';
import { runIdTokenCommand } from './id-token-command';
import { OAuthHopGuard, OAuthHopRefusedError } from './oauth-hop-guard';
import type { IssuedTokenRecord } from './oauth-store';
import { guardedFetch } from './safe-fetch';
import { expiresAt } from './server-credentials';
import type { DiscoveredAuthServer } from './sign-in-discovery';
import { describeSignInFailure } from './sign-in-errors';
import { SignInSession, type SignInSessionOptions, type UnauthorizedContext } from './sign-in-session';
import type { SignInSettings } from './sign-in-settings';

/** A new token when the current one expires within this long. */
const RENEW_MARGIN_MS = 60_000;
/** After a failed attempt, requests go out without a token (and fail) for this long instead of retrying. */
const QUIET_AFTER_FAILURE_MS = 10_000;

export interface AppSessionOptions extends SignInSessionOptions {
  /** The server's sign-in settings, secrets opened (read at every attempt: edits apply at once). */
  settings(): Promise<SignInSettings>;
  /** Gets the ID token (default: runs the configured command). */
  idToken?: (command: string) => Promise<string>;
  /** Gets the workload's identity token (default: runs the configured command). */
  workloadToken?: (command: string) => Promise<string>;
}

export class AppSession extends SignInSession<AppSessionOptions> {
  private discovery: DiscoveredAuthServer | undefined;
  private attempt: Promise<boolean> | undefined;
  /** The last failed attempt: when, with which settings (a hash, secrets included, kept in memory only), and why. */
  private failure: { at: number; settings: string; error: unknown } | undefined;

  constructor(options: AppSessionOptions) {
    super(options, (ref) => ref.signInMode);
    this.renew();
  }

  /** The way of signing in this session serves. */
  get mode(): 'application' | 'organization' {
    return this.ref.signInMode === 'organization' ? 'organization' : 'application';
  }

  override update(ref: RemoteServerRef): void {
    this.discovery = undefined; // discovered afresh at the next attempt
    super.update(ref);
  }

  /** A 403 cannot be helped by another grant of the same credentials. */
  observeError(): void {}

  async load(): Promise<void> {
    const record = await this.credentials.latest();
    if (record && !this.current) this.setView(this.signedIn(record));
  }

  /** The token for the next request: the stored one while it lasts, else a new one. */
  async token(): Promise<string | undefined> {
    const record = await this.credentials.latest();
    if (record && this.lasts(record)) return record.tokens.access_token;
    if (await this.quiet()) return undefined;
    if (!(await this.obtain())) return undefined;
    return (await this.credentials.latest())?.tokens.access_token;
  }

  /** A 401: a new token (the transport retries once), unless that is just what failed. */
  async onUnauthorized(ctx: UnauthorizedContext): Promise<void> {
    this.noteChallenge(ctx);
    if (!(await this.quiet())) {
      const refused = await this.credentials.latest();
      if (refused) this.credentials.forget(refused.issuer); // it must not be offered again
      if (await this.obtain()) return;
    }
    throw new UnauthorizedError(this.current?.error ?? `${this.ref.name} refused the sign-in.`);
  }

  /** The user asked to sign in (again): try now, then connect. */
  async signIn(): Promise<SignInStart> {
    this.failure = undefined;
    this.discovery = undefined;
    if (!(await this.obtain())) {
      const message = this.current?.error ?? `Could not sign in to ${this.ref.name}.`;
      throw new HostCallError(this.lastError() instanceof OAuthHopRefusedError ? 'forbidden' : 'internal', message);
    }
    await this.options.start().catch(() => undefined); // the fleet reports its own failures
    return { openedByHost: false };
  }

  async signOut(): Promise<void> {
    this.credentials.forget();
    this.setView({ status: 'signed-out', mode: this.mode });
    await this.options.stop();
  }

  private obtain(): Promise<boolean> {
    this.attempt ??= this.run().finally(() => (this.attempt = undefined));
    return this.attempt;
  }

  private async run(): Promise<boolean> {
    if (this.current?.status !== 'signed-in') this.setView({ status: 'signing-in', mode: this.mode, issuer: this.current?.issuer });
    let settings: SignInSettings | undefined;
    try {
      settings = await this.options.settings();
      if (settings.mode === 'browser') throw new Error(`${this.ref.name} is set up to sign in in the browser`);
      this.discovery = await obtainAppTokens({
        serverName: this.ref.name,
        serverUrl: this.ref.url,
        settings,
        credentials: this.credentials,
        fetch: guardedFetch(this.options.fetch, this.guard),
        guard: this.guard,
        idpFetch: settings.mode === 'organization' ? this.idpFetch(settings.idp.issuer) : this.options.fetch,
        idToken: this.options.idToken ?? ((command) => runIdTokenCommand(command)),
        workloadToken: this.options.workloadToken ?? ((command) => runIdTokenCommand(command, { token: 'workload token' })),
        resourceMetadataUrl: this.challenge.resourceMetadataUrl,
        scope: this.challenge.scope,
        discovery: this.discovery,
      });
      const record = await this.credentials.latest();
      if (!record) throw new Error('the authorization server sent no token');
      this.failure = undefined;
      this.setView(this.signedIn(record));
      return true;
    } catch (error) {
      this.discovery = undefined;
      this.failure = { at: this.options.now().getTime(), settings: fingerprint(settings), error };
      const how = this.mode === 'application' ? 'as an application' : 'through your organisation';
      this.setView({
        status: 'signed-out',
        mode: this.mode,
        error: `Could not sign in to ${this.ref.name} ${how}: ${describeSignInFailure(error, this.ref.name)}.`,
      });
      return false;
    }
  }

  /** The identity provider is the user's own choice: its origin and network are exempt, like the server's. */
  private idpFetch(issuer: string): FetchLike {
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new OAuthHopRefusedError(`the identity provider URL of ${this.ref.name} is not a URL`);
    }
    const guard = new OAuthHopGuard({ serverName: `${this.ref.name}'s identity provider`, serverUrl: url, lookup: this.options.lookup });
    return guardedFetch(this.options.fetch, guard);
  }

  private lasts(record: IssuedTokenRecord): boolean {
    const expiry = expiresAt(record);
    return expiry === undefined || expiry - this.options.now().getTime() > RENEW_MARGIN_MS;
  }

  private lastError(): unknown {
    return this.failure?.error;
  }

  /** Just failed, with the settings as they still are: not worth asking the authorization server again yet. */
  private async quiet(): Promise<boolean> {
    const failure = this.failure;
    if (!failure || this.options.now().getTime() - failure.at >= QUIET_AFTER_FAILURE_MS) return false;
    const now = await this.options.settings().catch(() => undefined);
    return fingerprint(now) === failure.settings; // edited since (a new secret, say): try again at once
  }

  private signedIn(record: IssuedTokenRecord): AuthView {
    return { ...signedInView(record), mode: this.mode };
  }
}

function fingerprint(settings: SignInSettings | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(settings ?? null))
    .digest('hex');
}
