/**
 * Toolbox pieces over the server fleet: listing the tools of Ready servers (production uses it with
 * the tool router's consent path, src-main/core/tools/chat-toolbox-adapter.ts), and running a call on
 * a server's connection WITHOUT asking anyone — for tests only.
 */
import type { ServerFleet } from '../server-fleet/server-fleet';
import { ServerRequestError } from '../servers/connection/request-errors';
import type { ChatToolbox, ToolboxEntry, ToolCallOutcome, ToolCallRequest } from './chat-toolbox';
import { textOutcome } from './chat-toolbox';

type FleetLike = Pick<ServerFleet, 'list' | 'connection'>;

/** The tools of every Ready server (or of `serverIds` only), in server order. */
export function listFleetTools(fleet: FleetLike, serverIds?: readonly string[]): ToolboxEntry[] {
  const wanted = serverIds ? new Set(serverIds) : undefined;
  const entries: ToolboxEntry[] = [];
  for (const view of fleet.list()) {
    const { id, name } = view.config;
    if (wanted && !wanted.has(id)) continue;
    const connection = fleet.connection(id);
    if (!connection || connection.state.status !== 'ready') continue;
    for (const tool of connection.catalog.tools) entries.push({ serverId: id, serverName: name, tool });
  }
  return entries;
}

/** Runs the call on the server's connection, mapping every failure to an outcome (never throws). */
export async function callOnFleet(fleet: FleetLike, request: ToolCallRequest): Promise<ToolCallOutcome> {
  const connection = fleet.connection(request.serverId);
  if (!connection) return textOutcome('error', 'The server of this tool is not running any more.');
  if (request.signal.aborted) return textOutcome('cancelled', 'Cancelled before it ran.');
  request.onStatus('running');
  try {
    const result = await connection.callTool(request.toolName, request.args, {
      signal: request.signal,
      onProgress: (p) => request.onStatus('running', { progress: p.progress, total: p.total, message: p.message }),
    });
    const isError = result.isError === true;
    return { outcome: isError ? 'error' : 'done', isError, content: result.content ?? [], structuredContent: result.structuredContent };
  } catch (error) {
    if (error instanceof ServerRequestError && error.kind === 'cancelled') return textOutcome('cancelled', 'Cancelled by the user.');
    if (request.signal.aborted) return textOutcome('cancelled', 'Cancelled by the user.');
    return textOutcome('error', (error as Error).message);
  }
}

/** FOR TESTS ONLY: runs every call without asking anyone. */
export function unguardedFleetToolboxForTests(fleet: FleetLike): ChatToolbox {
  return { list: (serverIds) => listFleetTools(fleet, serverIds), call: (request) => callOnFleet(fleet, request) };
}

