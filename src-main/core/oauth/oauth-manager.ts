/**
 * OAuth for every remote server: one session per server (created when the fleet first asks, or when
 * the user signs in or out) — an `OAuthSession` for a server that signs in in the browser, an
 * `AppSession` for one that signs in as an application or through the organisation — all sharing
 * the sealed store (and the browser ones the loopback listener). This is the fleet's `RemoteAuthSource`.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { type AuthView, HostCallError, type ServerView, type SignInStart } from '@contract';
import type { RemoteAuth, RemoteAuthSource, RemoteServerRef, ServerControl } from '../servers/transport/remote-auth';
import type { LoopbackRedirect } from './loopback-redirect';
import type { LookupAll } from './oauth-hop-guard';
import { AppSession } from './app-session';
import { OAuthSession } from './oauth-session';
import type { OAuthCredentialStore } from './oauth-store';
import type { SignInSession } from './sign-in-session';
import type { SignInSettings } from './sign-in-settings';

/** Either kind of session: the manager needs only what they share. */
type AuthSession = SignInSession;

export interface OAuthManagerOptions {
  store: OAuthCredentialStore;
  loopback: LoopbackRedirect;
  now: () => Date;
  /** The network for OAuth hops (default: global fetch). */
  fetch?: FetchLike;
  lookup?: LookupAll;
  openExternal?: (url: string) => Promise<void>;
  clientMetadataUrl?: () => string | undefined;
  /** A server's sign-in settings, secrets opened (default: in the browser, no client registered in advance). */
  signInSettings?: (serverId: string) => Promise<SignInSettings>;
  /** Gets the user's ID token for organisation sign-in (default: runs the configured command). */
  idToken?: (command: string) => Promise<string>;
}

export class OAuthManager implements RemoteAuthSource {
  private readonly sessions = new Map<string, { session: AuthSession; browser: boolean }>();
  private control: ServerControl | undefined;
  private disposed = false;

  constructor(private readonly options: OAuthManagerOptions) {}

  /** Connects the manager to the fleet; servers with stored tokens then show as signed in. */
  attach(control: ServerControl): void {
    this.control = control;
    for (const id of this.options.store.serversWithTokens()) {
      const ref = control.describe(id);
      if (ref) this.session(ref);
    }
  }

  /** The server's view as the fleet has it; undefined before the fleet attached. */
  viewOf(serverId: string): ServerView | undefined {
    return this.control?.viewById(serverId);
  }

  forServer(server: RemoteServerRef): RemoteAuth {
    return this.session(server).remoteAuth();
  }

  view(serverId: string): AuthView | undefined {
    return this.sessions.get(serverId)?.session.view();
  }

  forget(serverId: string): void {
    this.sessions.get(serverId)?.session.dispose();
    this.sessions.delete(serverId);
  }

  async signIn(serverId: string): Promise<SignInStart> {
    return this.session(this.describe(serverId)).signIn();
  }

  async signOut(serverId: string): Promise<void> {
    return this.session(this.describe(serverId)).signOut();
  }

  /** Cancels pending sign-ins and closes the loopback listener. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const { session } of this.sessions.values()) session.dispose();
    await this.options.loopback.close();
  }

  private describe(serverId: string): RemoteServerRef {
    if (this.disposed) throw new HostCallError('internal', 'Patchbay is shutting down.');
    const ref = this.control?.describe(serverId);
    // There is no "not found" error code: an unknown id is a bad input, as elsewhere in the host.
    if (!ref) throw new HostCallError('invalid_input', `No remote server with id ${serverId}.`);
    return ref;
  }

  private session(ref: RemoteServerRef): AuthSession {
    const browser = ref.signInMode === 'browser';
    const existing = this.sessions.get(ref.id);
    if (existing?.browser === browser) {
      existing.session.update(ref);
      return existing.session;
    }
    // A new way of signing in: the other kind of session (its tokens stay, but are not this kind's).
    existing?.session.dispose();
    const session = browser ? this.browserSession(ref) : this.appSession(ref);
    this.sessions.set(ref.id, { session, browser });
    void session.load().catch(() => undefined); // a store that cannot be read shows as signed out
    return session;
  }

  private settings(serverId: string): Promise<SignInSettings> {
    return this.options.signInSettings?.(serverId) ?? Promise.resolve({ mode: 'browser' });
  }

  private browserSession(ref: RemoteServerRef): OAuthSession {
    return new OAuthSession({
      ref,
      store: this.options.store,
      loopback: this.options.loopback,
      now: this.options.now,
      fetch: this.network(),
      lookup: this.options.lookup,
      openExternal: this.options.openExternal,
      clientMetadataUrl: () => this.options.clientMetadataUrl?.(),
      preregisteredClient: async () => {
        const settings = await this.settings(ref.id);
        return settings.mode === 'browser' ? settings.client : undefined;
      },
      ...this.controlFor(ref.id),
    });
  }

  private appSession(ref: RemoteServerRef): AppSession {
    return new AppSession({
      ref,
      store: this.options.store,
      now: this.options.now,
      fetch: this.network(),
      lookup: this.options.lookup,
      settings: () => this.settings(ref.id),
      idToken: this.options.idToken,
      ...this.controlFor(ref.id),
    });
  }

  private network(): FetchLike {
    return this.options.fetch ?? ((url, init) => fetch(url, init));
  }

  private controlFor(id: string) {
    return {
      publish: () => this.control?.publish(id),
      start: () => this.control?.start(id) ?? Promise.resolve(),
      stop: () => this.control?.stop(id) ?? Promise.resolve(),
    };
  }
}
