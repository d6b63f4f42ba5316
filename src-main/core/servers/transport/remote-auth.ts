/**
 * The seam between a remote server's connection and the host's OAuth support. The connection knows
 * nothing about OAuth: it hands the SDK transport an `AuthProvider`, routes every request through
 * `wrapFetch`, and reports the errors a send threw so the sign-in state can follow them.
 */
import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { AuthView, ServerView, SignInMode } from '@contract';

/** Which remote server a `RemoteAuth` is for. */
export interface RemoteServerRef {
  id: string;
  /** User-facing name, for messages. */
  name: string;
  /** The server's MCP endpoint as configured. */
  url: string;
  /** How it signs in when it wants OAuth: in the browser, as an application, through the organisation. */
  signInMode: SignInMode;
}

/** OAuth for one connection attempt to one remote server. */
export interface RemoteAuth {
  /** Given to the SDK transport: the bearer token before each request, and what to do on a 401. */
  authProvider: AuthProvider;
  /** Wraps the fetch every request of this connection goes through (OAuth hops get SSRF checks). */
  wrapFetch(next: FetchLike): FetchLike;
  /** Every error a send to this server threw (unauthorized, insufficient scope…), so the sign-in state follows it. */
  observeError(error: unknown): void;
}

/** Where the fleet gets OAuth pieces and the sign-in state of each remote server. */
export interface RemoteAuthSource {
  forServer(server: RemoteServerRef): RemoteAuth;
  /** The sign-in state to show on the server's card; undefined when the server never asked for OAuth. */
  view(serverId: string): AuthView | undefined;
  /** The server was removed: end a pending sign-in and drop what is kept in memory (SQLite rows cascade). */
  forget(serverId: string): void;
  /**
   * The fleet made with this source hands itself over as it is made (the source is made first, as
   * the fleet needs it; what the source does with servers needs the fleet): servers with stored tokens
   * then show as signed in.
   */
  attach(control: ServerControl): void;
}

/** What the OAuth area may do with servers (implemented by the fleet). */
export interface ServerControl {
  /** Re-sends the server's view (after a sign-in state change). */
  publish(serverId: string): void;
  /** (Re)connects the server, e.g. after a sign-in completed. */
  start(serverId: string): Promise<unknown>;
  stop(serverId: string): Promise<unknown>;
  /** The server's name and URL, or undefined when it is not a remote server (or gone). */
  describe(serverId: string): RemoteServerRef | undefined;
  /** The server's view as the renderer has it (what signing out answers with). */
  viewById(serverId: string): ServerView;
}
