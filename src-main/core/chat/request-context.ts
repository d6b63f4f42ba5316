/**
 * What a chat request carries besides the history: the tools of the turn (every tool the
 * conversation offers, and which of them each request carries under tool search and the provider's
 * limits) and the system prompt (the user's own plus the instructions of the servers whose tools are
 * offered). One place, so the agent loop sends exactly what the context meter counts.
 */
import type { Settings } from '@contract';
import type { LlmTool, ModelRoute } from '../llm/llm-types';
import { composeSystemPrompt, type ServerInstructions } from '../server-instructions/server-instructions';
import type { ToolIndexCache } from '../tool-search/tool-index';
import type { ChatToolbox } from './chat-toolbox';
import { TurnTools } from './turn-tools';

/** The tools of a turn (none for a model that refused tools). */
export function toolsOfTurn(
  toolbox: Pick<ChatToolbox, 'list' | 'skills'>,
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
    route.offerTools ? toolbox.skills : undefined,
  );
}

/**
 * The instructions a request carries: only of servers with a tool in this request (under tool search,
 * once one of theirs was found), each text once however many servers share it.
 */
export function requestInstructions(
  toolbox: Pick<ChatToolbox, 'instructions'>,
  turn: TurnTools,
  offered: readonly Pick<LlmTool, 'name'>[],
): ServerInstructions[] {
  const serverIds = [...new Set(offered.flatMap((tool) => turn.names.resolve(tool.name)?.serverId ?? []))];
  return serverIds.length > 0 ? (toolbox.instructions?.(serverIds) ?? []) : [];
}

/** The system prompt of a request: the user's own, then the instructions of the servers whose tools it offers. */
export function requestSystemPrompt(
  settings: Pick<Settings, 'systemPrompt'>,
  toolbox: Pick<ChatToolbox, 'instructions'>,
  turn: TurnTools,
  offered: readonly Pick<LlmTool, 'name'>[],
): string | undefined {
  return composeSystemPrompt(settings.systemPrompt, requestInstructions(toolbox, turn, offered));
}
