/**
 * What a chat request carries besides the history: the tools of the turn (every tool the
 * conversation offers, and which of them each request carries under tool search and the provider's
 * limits) and the system prompt (the user's own plus the instructions of the servers whose tools are
 * offered). One place, so the agent loop sends exactly what the context meter counts.
 */
import type { Settings } from '@contract';
import type { ModelRoute } from '../llm/llm-types';
import { composeSystemPrompt } from '../server-instructions/server-instructions';
import type { ToolIndexCache } from '../tool-search/tool-index';
import type { ChatToolbox } from './chat-toolbox';
import { TurnTools } from './turn-tools';

/** The tools of a turn (none for a model that refused tools). */
export function toolsOfTurn(
  toolbox: Pick<ChatToolbox, 'list'>,
  /** The conversation's servers (null: every Ready server) and tool set. */
  selection: { serverIds: readonly string[] | null; toolSetId?: string },
  route: Pick<ModelRoute, 'offerTools' | 'toolLimits'>,
  settings: Pick<Settings, 'toolSearch'>,
  indexes?: ToolIndexCache,
): TurnTools {
  return new TurnTools(
    route.offerTools ? toolbox.list(selection.serverIds ?? undefined, selection.toolSetId) : [],
    settings.toolSearch,
    route.toolLimits,
    indexes,
  );
}

/** The system prompt of a turn: instructions only of servers with a tool offered to the conversation. */
export function requestSystemPrompt(
  settings: Pick<Settings, 'systemPrompt'>,
  toolbox: Pick<ChatToolbox, 'instructions'>,
  tools: TurnTools,
): string | undefined {
  const serverIds = [...new Set(tools.names.entries().map(([, tool]) => tool.serverId))];
  return composeSystemPrompt(settings.systemPrompt, serverIds.length > 0 ? (toolbox.instructions?.(serverIds) ?? []) : []);
}
