/**
 * A tool call as the router takes it and reports it — the one vocabulary for a call, used by the
 * router, the Tools panel's handlers and the chat's agent loop alike (`tool`, `onStage`, `status`).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type {
  AuditDecider,
  ChatCallRef,
  ToolCallOrigin,
  ToolCallOutcome,
  ToolCallTask,
  ToolRunProgress,
} from '../../../src-preload/contract';
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
  onProgress?(progress: ToolRunProgress): void;
  /**
   * The call now waits for the user / is running (for the chat's tool card); when it runs with
   * arguments the user edited, `editedArgs` are those.
   */
  onStage?(stage: 'waiting-approval' | 'running', editedArgs?: Record<string, unknown>): void;
  /** The call runs as a task: it was created, or its status changed. */
  onTask?(task: ToolCallTask): void;
  /** The chat tool call this is (the running call carries it, so its card can follow and cancel it). */
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
