/**
 * OAuth for every remote server: one `OAuthSession` per server (created when the fleet first asks, or
 * when the user signs in or out), all sharing the sealed store and the loopback listener. This is the
 * `RemoteAuthSource` the fleet uses.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { type AuthView, HostCallError, type SignInStart } from '../../../src-preload/contract';
import type { RemoteAuth, RemoteAuthSource, RemoteServerRef, ServerControl } from '../servers/transport/remote-auth';
import type { LoopbackRedirect } from './loopback-redirect';
import type { LookupAll } from './oauth-hop-guard';
import type { PreregisteredClient } from './oauth-provider';
import { OAuthSession } from './oauth-session';
import type { OAuthCredentialStore } from './oauth-store';

export interface OAuthManagerOptions {
  store: OAuthCredentialStore;
  loopback: LoopbackRedirect;
  now: () => Date;
  /** The network for OAuth hops (default: global fetch). */
  fetch?: FetchLike;
  lookup?: LookupAll;
  openExternal?: (url: string) => Promise<void>;
  clientMetadataUrl?: () => string | undefined;
  preregisteredClient?: (serverId: string) => Promise<PreregisteredClient | undefined>;
}

export class OAuthManager implements RemoteAuthSource {
  private readonly sessions = new Map<string, OAuthSession>();
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

  forServer(server: RemoteServerRef): RemoteAuth {
    return this.session(server).remoteAuth();
  }

  view(serverId: string): AuthView | undefined {
    return this.sessions.get(serverId)?.view();
  }

  forget(serverId: string): void {
    this.sessions.get(serverId)?.dispose();
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
    for (const session of this.sessions.values()) session.dispose();
    await this.options.loopback.close();
  }

  private describe(serverId: string): RemoteServerRef {
    if (this.disposed) throw new HostCallError('internal', 'Patchbay is shutting down.');
    const ref = this.control?.describe(serverId);
    // There is no "not found" error code: an unknown id is a bad input, as elsewhere in the host.
    if (!ref) throw new HostCallError('invalid_input', `No remote server with id ${serverId}.`);
    return ref;
  }

  private session(ref: RemoteServerRef): OAuthSession {
    const existing = this.sessions.get(ref.id);
    if (existing) {
      existing.update(ref);
      return existing;
    }
    const session = new OAuthSession({
      ref,
      store: this.options.store,
      loopback: this.options.loopback,
      now: this.options.now,
      fetch: this.options.fetch ?? ((url, init) => fetch(url, init)),
      lookup: this.options.lookup,
      openExternal: this.options.openExternal,
      clientMetadataUrl: () => this.options.clientMetadataUrl?.(),
      preregisteredClient: async () => this.options.preregisteredClient?.(ref.id),
      publish: () => this.control?.publish(ref.id),
      start: () => this.control?.start(ref.id) ?? Promise.resolve(),
      stop: () => this.control?.stop(ref.id) ?? Promise.resolve(),
    });
    this.sessions.set(ref.id, session);
    void session.load().catch(() => undefined); // a store that cannot be read shows as signed out
    return session;
  }
}
