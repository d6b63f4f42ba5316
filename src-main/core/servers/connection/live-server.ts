import type { ServerConnection } from './server-connection';

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

/** How an area reaches servers (the fleet hands out both). */
export interface ServerAccess {
  /** The server's connection, ready or not; undefined when it has not started in this run. */
  connection(serverId: string): LiveServer | undefined;
  /** The server, ready — or one `HostCallError`: no such server, or `Server "…" is not running; start it to ${toDo}.` */
  ready(serverId: string, toDo: string): LiveServer;
}
