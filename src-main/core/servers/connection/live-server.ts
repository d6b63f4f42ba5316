import type { ServerConnection } from './server-connection';
import type { ServerState } from './server-state';

/**
 * What an area may use of a server's connection: its name, state and catalog, and the requests it
 * sends. The fleet hands these out (`ServerFleet.connection`, `ServerFleet.ready`); only the fleet
 * holds the `ServerConnection` behind them (starting, stopping and restarting it are the fleet's).
 */
export type LiveServer = Pick<
  ServerConnection,
  | 'name'
  | 'pid'
  | 'state'
  | 'catalog'
  | 'callTool'
  | 'readResource'
  | 'getPrompt'
  | 'complete'
  | 'sendRequest'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'listenForResources'
  | 'refreshContentList'
>;

/** The state of a Ready server: what it said at the handshake (`server`: capabilities, era, instructions). */
export type ReadyState = Extract<ServerState, { status: 'ready' }>;

/**
 * A server that was Ready when an area asked for it (`ServerAccess.ready`, `readyNow`): its handshake
 * facts, its catalog and the MCP requests an area may send — no raw `sendRequest` (only the tasks,
 * which speak the task wire, use `LiveServer`'s). The model is VS Code's `McpServer.callOn`: wait or
 * fail once, then use; an area never checks the status again, and a request on a server that stopped
 * since fails with that request's own error.
 */
export type ReadyServer = Omit<LiveServer, 'state' | 'sendRequest'> & { readonly state: ReadyState };

/** Whether the connection is Ready now (the fleet's one check; areas ask `ServerAccess`). */
export function isReady(connection: LiveServer | undefined): connection is LiveServer & ReadyServer {
  return connection?.state.status === 'ready';
}

/** How an area reaches servers (the fleet hands out all three). */
export interface ServerAccess {
  /** The server's connection, ready or not (its state, its pid); undefined when it has not started in this run. */
  connection(serverId: string): LiveServer | undefined;
  /** The server, ready — or one `HostCallError`: no such server, or `Server "…" is not running; start it to ${toDo}.` */
  ready(serverId: string, toDo: string): ReadyServer;
  /** The server when it is Ready now, else undefined: for what leaves out servers that are not running (lists, suggestions). */
  readyNow(serverId: string): ReadyServer | undefined;
}
