/**
 * What the agent loop needs from the tools side: the tools of ready servers, and a way to run a
 * model-initiated call through consent. The host wires an adapter to the tool router; tests wire
 * one to the fleet directly (fleet-toolbox.ts).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ToolCallStatus, ToolOutcome, ToolProgress } from '../../../src-preload/contract';

export interface ToolboxEntry {
  serverId: string;
  serverName: string;
  tool: Tool;
}

export interface ToolCallRequest {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** Aborted when the user presses Stop: cancels a pending consent or the running call. */
  signal: AbortSignal;
  /** `waiting-approval` while consent is pending, `running` once the call went out (with progress). */
  onStatus(status: Extract<ToolCallStatus, 'waiting-approval' | 'running'>, progress?: ToolProgress): void;
  /** Which conversation asked, for the consent dialog and the audit trail. */
  origin?: { kind: 'chat'; conversationId: string };
}

/** How a call ended. `content` is the MCP result's content (or a message saying why there is none). */
export interface ToolCallOutcome {
  outcome: ToolOutcome;
  isError: boolean;
  content: CallToolResult['content'];
  structuredContent?: CallToolResult['structuredContent'];
}

export interface ChatToolbox {
  /** Tools of Ready servers (only these server ids when given), with the server's identity. */
  list(serverIds?: readonly string[]): ToolboxEntry[];
  /** Runs a model-initiated call through the consent broker; never throws for tool errors or denials. */
  call(request: ToolCallRequest): Promise<ToolCallOutcome>;
}

/** An outcome with only a text saying what happened. */
export function textOutcome(outcome: ToolOutcome, text: string): ToolCallOutcome {
  return { outcome, isError: outcome !== 'done', content: [{ type: 'text', text }] };
}

/** A toolbox with no tools (when no tools side is wired). */
export const EMPTY_TOOLBOX: ChatToolbox = {
  list: () => [],
  call: async () => textOutcome('error', 'No tools are available.'),
};
