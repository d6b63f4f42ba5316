/**
 * The context meter's count: what the next request of a conversation will carry, in tokens — the
 * tool definitions (by server), the system prompt (with the servers' instructions), the draft's
 * attachments and the history with the draft's text. Built from the same pieces the agent loop sends
 * (`request-context.ts`), counted by one cached tokenizer (approximate for every provider).
 */
import {
  HostCallError,
  SKILL_TOOL_NAME,
  type ChatBlock,
  type ChatMessage,
  type ContextMeasure,
  type ServerContextView,
  type ServerToolTokens,
  type Settings,
} from '@contract';
import type { TokenCounter } from '../context-meter/token-counter';
import { estimateTokens } from '../tool-search/token-estimate';
import type { ModelRouter } from '../llm/llm-types';
import { groupInstructions, instructionsBlock, MAX_INSTRUCTION_CHARS } from '../server-instructions/server-instructions';
import type { InstructionsSource } from '../server-instructions/instructions-source';
import { MAX_HISTORY_MESSAGES } from './agent-loop';
import { toLlmMessages } from './api-history';
import type { ChatToolbox } from './chat-toolbox';
import type { ConversationRepository } from './conversation-repository';
import type { MessageRepository } from './message-repository';
import type { MessageSender } from './message-sender';
import { requestInstructions, requestSystemPrompt, toolsOfTurn } from './request-context';

export interface ContextMeasurerDeps {
  toolbox: ChatToolbox;
  instructions: InstructionsSource;
  counter: TokenCounter;
  settings(): Pick<Settings, 'systemPrompt' | 'toolSearch'>;
  conversations: Pick<ConversationRepository, 'get'>;
  messages: Pick<MessageRepository, 'recent'>;
  router: Pick<ModelRouter, 'route'>;
  sender: Pick<MessageSender, 'draftBlocks'>;
}

export interface MeasureInput {
  conversationId?: string;
  draftChars: number;
  attachmentIds: string[];
  promptUseId?: string;
}

export class ContextMeasurer {
  constructor(private readonly deps: ContextMeasurerDeps) {}

  async measure({ conversationId, draftChars, attachmentIds, promptUseId }: MeasureInput): Promise<ContextMeasure> {
    const { deps } = this;
    const conversation = conversationId !== undefined ? deps.conversations.get(conversationId) : undefined;
    if (conversationId !== undefined && !conversation)
      throw new HostCallError('invalid_input', `No conversation with id ${conversationId}`);
    const route = deps.router.route(conversation ?? {});
    const settings = deps.settings();
    const turn = toolsOfTurn(
      deps.toolbox,
      { serverIds: conversation?.serverIds ?? null, toolSetId: conversation?.toolSetId },
      route,
      settings,
    );
    const history = conversation ? deps.messages.recent(conversation.id, MAX_HISTORY_MESSAGES) : [];
    // What the next request carries under tool search; over the provider's limit nothing is sent, and
    // the meter shows what the conversation offers (that is what the notice asks the user to cut).
    const plan = turn.plan(history);
    const tools = plan.kind === 'over-limit' ? turn.all : plan.tools;
    const system = requestSystemPrompt(settings, deps.toolbox, turn, tools);
    // Each server's instructions, counted where they go (shared text once, at the first server giving it).
    const groups = groupInstructions(requestInstructions(deps.toolbox, turn, tools));
    const names = turn.names;
    const offer = { offerTools: tools.length > 0 };
    const extra = deps.sender.draftBlocks(attachmentIds, promptUseId);

    const [toolTokens, systemTokens, historyTokens, attachmentTokens, instructionTokens] = await Promise.all([
      deps.counter.countTools(tools),
      deps.counter.count(system ?? ''),
      deps.counter.countMessages(toLlmMessages(history, offer)),
      deps.counter.countMessages(toLlmMessages(extra.map(asMessage), offer)),
      Promise.all(groups.map((group) => deps.counter.count(instructionsBlock(group)))),
    ]);
    const byServer = (list: typeof tools, tokens: readonly number[], withInstructions: boolean) => {
      const servers = new Map<string, ServerToolTokens>();
      list.forEach((tool, i) => {
        // The host's own search tool belongs to no server: it counts in the total only.
        const owner = names.resolve(tool.name);
        if (!owner) return;
        const { serverId, serverName } = owner;
        const entry = servers.get(serverId) ?? { serverId, serverName, tools: 0, tokens: 0 };
        entry.tools += 1;
        entry.tokens += tokens[i] ?? 0;
        servers.set(serverId, entry);
      });
      // A server's instructions go only with its offered tools: they count on the side that is sent.
      if (withInstructions)
        groups.forEach((group, i) => {
          const entry = servers.get(group.serverIds[0]);
          if (entry) entry.instructionTokens = instructionTokens[i];
        });
      return [...servers.values()].sort((a, b) => b.tokens - a.tokens || a.serverName.localeCompare(b.serverName));
    };
    // Under tool search: what it keeps back, so the meter can say so rather than "no tools".
    const sent = new Set(tools.map((tool) => tool.name));
    const held = plan.kind === 'search' ? turn.all.filter((tool) => !sent.has(tool.name)) : [];
    const heldTokens = held.length > 0 ? await deps.counter.countTools(held) : [];
    // The host's skill tool (the skills' names and descriptions) is counted on its own line.
    const skillAt = tools.findIndex((tool) => tool.name === SKILL_TOOL_NAME);
    const skillTokens = skillAt >= 0 ? (toolTokens[skillAt] ?? 0) : 0;
    const toolsTotal = sum(toolTokens) - skillTokens;
    // The draft's text changes on every keystroke: estimated, not tokenized.
    const historyTotal = historyTokens + estimateTokens(draftChars);
    return {
      total: toolsTotal + skillTokens + systemTokens + attachmentTokens + historyTotal,
      tools: toolsTotal,
      toolCount: tools.length - (skillAt >= 0 ? 1 : 0),
      system: systemTokens,
      attachments: attachmentTokens,
      history: historyTotal,
      servers: byServer(tools, toolTokens, true),
      ...(skillAt >= 0 ? { skills: { offered: turn.skills.offered, tokens: skillTokens } } : {}),
      ...(held.length > 0 ? { heldBack: { tools: held.length, tokens: sum(heldTokens), servers: byServer(held, heldTokens, false) } } : {}),
    };
  }

  /** What one server adds to requests: its offered tools' tokens, its instructions and their switch. */
  async serverContext(serverId: string): Promise<ServerContextView> {
    const { all: tools } = toolsOfTurn(this.deps.toolbox, { serverIds: [serverId] }, { offerTools: true }, { toolSearch: 'off' });
    const tokens = await this.deps.counter.countTools(tools);
    const { text, send, flags } = this.deps.instructions.of(serverId);
    return {
      serverId,
      ...(text !== undefined ? { instructions: text } : {}),
      sendInstructions: send,
      ...(flags?.length ? { instructionFlags: flags } : {}),
      instructionsLimit: MAX_INSTRUCTION_CHARS,
      tools: tools.length,
      toolTokens: sum(tokens),
    };
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** A draft's blocks as a history message (for `toLlmMessages`, which turns resources into what the model gets). */
function asMessage(message: { role: 'user' | 'assistant'; content: ChatBlock[] }, i: number): ChatMessage {
  return { id: -1 - i, conversationId: '', seq: i + 1, role: message.role, content: message.content, status: 'complete', createdAt: '' };
}
