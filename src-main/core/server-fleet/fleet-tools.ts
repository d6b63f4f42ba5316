/**
 * The tools the fleet offers right now: every Ready server's catalog, with the server's identity.
 * What the chat offers the model (its calls then go through the tool router's consent path).
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerFleet } from './server-fleet';

/** One tool of a Ready server. */
export interface FleetTool {
  serverId: string;
  serverName: string;
  tool: Tool;
  /** The user pinned it: always sent up front, even when tool search is on (set by the tool-offers area). */
  pinned?: boolean;
}

/** The tools of every Ready server (or of `serverIds` only), in server order. */
export function listFleetTools(fleet: Pick<ServerFleet, 'refs' | 'connection'>, serverIds?: readonly string[]): FleetTool[] {
  const wanted = serverIds ? new Set(serverIds) : undefined;
  const entries: FleetTool[] = [];
  for (const { id, name } of fleet.refs()) {
    if (wanted && !wanted.has(id)) continue;
    const connection = fleet.connection(id);
    if (!connection || connection.state.status !== 'ready') continue;
    for (const tool of connection.catalog.tools) entries.push({ serverId: id, serverName: name, tool });
  }
  return entries;
}
