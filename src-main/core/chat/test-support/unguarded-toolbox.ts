/**
 * FOR TESTS ONLY: a chat toolbox over the fleet that runs every call on the server's connection
 * WITHOUT asking anyone — no consent, no audit. The host never builds one: it wires the chat to the
 * tool router's `callToolWithConsent`. Here so chat tests can run the loop against a real server
 * without the rest of the host.
 */
import type { ServerFleet } from '../../server-fleet/server-fleet';
import { listFleetTools } from '../../server-fleet/fleet-tools';
import { ServerRequestError } from '../../servers/connection/request-errors';
import { errorResult } from '../../tools/call-messages';
import type { ToolCallDone, ToolCallRequest } from '../../tools/tool-call';
import type { ChatToolbox } from '../chat-toolbox';

type FleetLike = Pick<ServerFleet, 'refs' | 'connection'>;
type Done = Pick<ToolCallDone, 'status' | 'result'>;

const failed = (status: Done['status'], text: string): Done => ({ status, result: errorResult(text) });

/** Runs the call on the server's connection, mapping every failure to a status (never throws). */
async function callOnFleet(fleet: FleetLike, request: ToolCallRequest): Promise<Done> {
  const connection = fleet.connection(request.serverId);
  if (!connection) return failed('protocol_error', 'The server of this tool is not running any more.');
  if (request.signal?.aborted) return failed('cancelled', 'Cancelled before it ran.');
  try {
    const result = await connection.callTool(request.tool, request.args, { signal: request.signal });
    return { status: result.isError ? 'tool_error' : 'ok', result };
  } catch (error) {
    if (error instanceof ServerRequestError && error.kind === 'cancelled') return failed('cancelled', 'Cancelled by the user.');
    if (request.signal?.aborted) return failed('cancelled', 'Cancelled by the user.');
    return failed('protocol_error', (error as Error).message);
  }
}

export function unguardedFleetToolboxForTests(fleet: FleetLike): ChatToolbox {
  return { list: (serverIds) => listFleetTools(fleet, serverIds), call: (request) => callOnFleet(fleet, request) };
}
