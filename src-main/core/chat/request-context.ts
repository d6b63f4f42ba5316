/**
 * What a chat request carries besides the history: the tool definitions offered, and the system
 * prompt (the user's own plus the instructions of the servers whose tools are offered). One place,
 * so the agent loop sends exactly what the context meter counts.
 */
import type { Settings } from '../../../src-preload/contract';
import type { LlmTool } from '../llm/llm-types';
import type { FleetTool } from '../server-fleet/fleet-tools';
import { composeSystemPrompt } from '../server-instructions/server-instructions';
import type { ChatToolbox } from './chat-toolbox';
import { offerTools, ToolNameMap, type ToolIdentity } from './tool-names';

export type ToolEntry = ToolIdentity & { description?: string; inputSchema: Record<string, unknown> };

function identify(entries: FleetTool[]): ToolEntry[] {
  return entries.map(({ serverId, serverName, tool }) => ({
    serverId,
    serverName,
    toolName: tool.name,
    description: tool.description ?? tool.title,
    inputSchema: tool.inputSchema as Record<string, unknown>,
  }));
}

/** The offered tools under their API names (none for a model that refused tools). */
export function requestTools(
  toolbox: Pick<ChatToolbox, 'list'>,
  serverIds: readonly string[] | null,
  offer: boolean,
): { names: ToolNameMap<ToolEntry>; tools: LlmTool[] } {
  const names = new ToolNameMap(offer ? identify(toolbox.list(serverIds ?? undefined)) : []);
  return { names, tools: offerTools(names) };
}

/** The system prompt of a request offering these tools: instructions only of servers with a tool in it. */
export function requestSystemPrompt(
  settings: Pick<Settings, 'systemPrompt'>,
  toolbox: Pick<ChatToolbox, 'instructions'>,
  names: ToolNameMap<ToolEntry>,
): string | undefined {
  const serverIds = [...new Set(names.entries().map(([, tool]) => tool.serverId))];
  return composeSystemPrompt(settings.systemPrompt, serverIds.length > 0 ? (toolbox.instructions?.(serverIds) ?? []) : []);
}
