/**
 * A tool call as the router takes it and reports it — the one vocabulary for a call, used by the
 * router, the Tools panel's handlers and the chat's agent loop alike (`tool`, `args`, `status`).
 * One record grows as the call goes: what a caller asks (`ToolCallRequest`), the call once the router
 * has named it (`ToolCall`: the contract's `ToolCallIdentity` and what was asked), and how it ended
 * (`ToolCallDone`). How a call goes on while it runs is not reported back to the caller: the router
 * tells everyone through the one stream of tool-call events (contract `ToolEvents`), with the chat
 * reference.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { AuditDecider, ChatCallRef, ToolCallIdentity, ToolRunStatus } from '@contract';
import type { CallError } from './call-messages';

/** What the caller asks for: which tool of which server, with which arguments. */
export interface ToolCallRequest extends Pick<ToolCallIdentity, 'serverId' | 'tool' | 'origin'> {
  args: Record<string, unknown>;
  /** A fresh UUID when omitted. */
  callId?: string;
  /** Aborting withdraws a pending consent request, or cancels the running call. */
  signal?: AbortSignal;
  /** The chat tool call this is: every event of the call carries it, so its card can follow and cancel it. */
  chat?: ChatCallRef;
}

/** The call once the router has taken it: its identity (id and server name given), and what was asked. */
export interface ToolCall extends ToolCallIdentity, Pick<ToolCallRequest, 'args' | 'signal' | 'chat'> {
  requestedAt: Date;
}

/** How a call ended, with what the model gets (`result`: the server's, or a synthesized `isError`). */
export interface ToolCallDone extends ToolCallIdentity {
  status: ToolRunStatus;
  result: CallToolResult;
  error?: CallError;
  decidedBy: AuditDecider;
  /** The definition the call was made against (absent when the tool was not found). */
  definition?: Tool;
  /** The arguments the call ran with, when the user changed the model's before allowing it (absent otherwise). */
  editedArgs?: Record<string, unknown>;
  startedAt: Date;
  durationMs: number;
}

/** Why a call never left, as the audit trail and the model are told. */
export interface Refusal {
  by: AuditDecider;
  error: CallError;
  status: ToolRunStatus;
  /** The definition, when the tool was found. */
  tool?: Tool;
}
