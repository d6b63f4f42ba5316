/**
 * A tool call as the router takes it and reports it — the one vocabulary for a call, used by the
 * router, the Tools panel's handlers and the chat's agent loop alike (`tool`, `args`, `status`).
 * How a call goes on while it runs is not reported back to the caller: the router tells everyone
 * through the one stream of tool-call events (contract `ToolEvents`), with the chat reference.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { AuditDecider, ChatCallRef, ToolCallOrigin, ToolCallOutcome } from '@contract';
import type { CallError } from './call-messages';

export interface ToolCallRequest {
  serverId: string;
  tool: string;
  args: Record<string, unknown>;
  origin: ToolCallOrigin;
  /** A fresh UUID when omitted. */
  callId?: string;
  /** Aborting withdraws a pending consent request, or cancels the running call. */
  signal?: AbortSignal;
  /** The chat tool call this is: every event of the call carries it, so its card can follow and cancel it. */
  chat?: ChatCallRef;
}

/** How a call ended, with what the model gets (`result`: the server's, or a synthesized `isError`). */
export interface ToolCallDone extends Pick<
  ToolCallOutcome,
  'callId' | 'serverId' | 'serverName' | 'tool' | 'origin' | 'status' | 'durationMs'
> {
  result: CallToolResult;
  error?: CallError;
  decidedBy: AuditDecider;
  /** The definition the call was made against (absent when the tool was not found). */
  definition?: Tool;
  /** The arguments the call ran with, when the user changed the model's before allowing it (absent otherwise). */
  editedArgs?: Record<string, unknown>;
  startedAt: Date;
}
