/**
 * Builds OAuth for the composition root in two steps. `createOAuthSource`, made before the fleet:
 * the sealed credential store, the loopback redirect listener and the manager (the fleet's
 * `RemoteAuthSource`; the fleet attaches itself to it as it is made). `createOAuthArea`, made after
 * the fleet: the `signIn` / `signOut` handlers, and the end of pending sign-ins while servers still run.
 */
import type Database from 'better-sqlite3';
import type { FetchLike } from '@modelcontextprotocol/client';
import { type HandlersFor, HostCallError, type signInMethods } from '@contract';
import type { Clock } from '../clock';
import type { SecretBox } from '../secrets/secret-box';
import type { RemoteAuthSource } from '../servers/transport/remote-auth';
import { LoopbackRedirect } from './loopback-redirect';
import type { LookupAll } from './oauth-hop-guard';
import { OAuthManager } from './oauth-manager';
import { OAuthCredentialStore } from './oauth-store';
import type { SignInSettings } from './sign-in-settings';

export interface OAuthAreaOptions {
  db: Database.Database;
  secrets: SecretBox;
  clock: Clock;
  /** Opens an authorization URL: the system browser in Electron, the headless browser in tests. Web mode: none. */
  openExternal?: (url: string) => Promise<void>;
  /** The CIMD URL setting (an https URL hosting Patchbay's client metadata), or undefined for DCR. */
  clientMetadataUrl?: () => string | undefined;
  /**
   * How a server signs in, its secrets opened: in the browser (with the client the user registered
   * in advance, if any), as an application, or through the organisation's identity provider.
   */
  signInSettings?: (serverId: string) => Promise<SignInSettings>;
  /** Gets the user's ID token for organisation sign-in (default: runs the configured command). */
  idToken?: (command: string) => Promise<string>;
  /** How long a sign-in waits for the browser to come back (default 10 minutes). */
  callbackTimeoutMs?: number;
  /** The network for OAuth hops (default: global fetch); tests may count or fake requests. */
  fetch?: FetchLike;
  /** DNS for the SSRF checks (default: the system resolver). */
  lookup?: LookupAll;
}

/** The sign-in source the fleet is made with: store, loopback listener, manager. */
export function createOAuthSource(options: OAuthAreaOptions): OAuthManager {
  const store = new OAuthCredentialStore({ db: options.db, secrets: options.secrets, now: () => options.clock.now() });
  const loopback = new LoopbackRedirect({ timeoutMs: options.callbackTimeoutMs });
  return new OAuthManager({
    store,
    loopback,
    now: () => options.clock.now(),
    fetch: options.fetch,
    lookup: options.lookup,
    openExternal: options.openExternal,
    clientMetadataUrl: options.clientMetadataUrl,
    signInSettings: options.signInSettings,
    idToken: options.idToken,
  });
}

export interface OAuthArea {
  readonly name: 'oauth';
  /** What the fleet is made with; the fleet attaches itself to it (see `RemoteAuthSource.attach`). */
  source: RemoteAuthSource;
  handlers: HandlersFor<typeof signInMethods>;
  /** Closes the loopback listener and rejects pending sign-ins. */
  dispose(): Promise<void>;
}

export function createOAuthArea({ source: manager }: { source: OAuthManager }): OAuthArea {
  return {
    name: 'oauth',
    source: manager,
    handlers: {
      signIn: ({ id }) => manager.signIn(id),
      signOut: async ({ id }) => {
        await manager.signOut(id);
        const view = manager.viewOf(id);
        if (!view) throw new HostCallError('internal', 'OAuth is not connected to the servers yet.');
        return view;
      },
    },
    dispose: () => manager.dispose(),
  };
}
