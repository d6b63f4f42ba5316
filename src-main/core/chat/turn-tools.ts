/**
 * The tools of one turn: every tool the conversation offers, named for the API (tool-names.ts);
 * which of them each request carries (tool search and provider limits, `tool-search/offer-plan.ts`);
 * and the host's own answer when the model calls the search tool. Tools found by a search are read
 * back from the conversation's stored search results, so they stay offered for the conversation,
 * across turns and restarts.
 */
import type { ChatMessage, ChatToolRef, ToolResultBlock, ToolUseBlock, ToolSearchMode, ToolSearchRecord } from '@contract';
import { TOOL_SEARCH_TOOL_NAME } from '@contract';
import type { ToolLimits } from '../llm/llm-types';
import type { FleetTool } from '../server-fleet/fleet-tools';
import { planToolOffer, type OfferPlan } from '../tool-search/offer-plan';
import { parseSearchInput, SEARCH_TOOL, searchAnswer } from '../tool-search/search-tool';
import { paramNamesOf, ToolIndexCache, type ToolIndex } from '../tool-search/tool-index';
import { offerTools, ToolNameMap } from './tool-names';
import { stuffingFinding } from '../guard/scanner/stuffing';
import { TurnSkills } from './turn-skills';
import type { ChatToolbox } from './chat-toolbox';

type ToolEntry = ChatToolRef & { title?: string; description?: string; inputSchema: Record<string, unknown>; pinned: boolean };

function identify(entries: readonly FleetTool[]): ToolEntry[] {
  return entries.map(({ serverId, serverName, tool, pinned }) => ({
    serverId,
    serverName,
    toolName: tool.name,
    title: tool.title,
    description: tool.description ?? tool.title,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    pinned: pinned === true,
  }));
}

/** The tools found by searches stored in a conversation's history. */
function foundInHistory(history: readonly ChatMessage[]): ToolSearchRecord['found'] {
  return history.flatMap((message) =>
    message.content.flatMap((block) => (block.type === 'tool_result' && block.toolSearch ? block.toolSearch.found : [])),
  );
}

export class TurnTools {
  readonly names: ToolNameMap<ToolEntry>;
  /** Every tool the conversation offers, under its API name (what a request carries with search off). */
  readonly all;
  private readonly pinned: ReadonlySet<string>;
  private index: ToolIndex | undefined;
  private searching = false;
  readonly skills: TurnSkills;

  constructor(
    offered: readonly FleetTool[],
    private readonly mode: ToolSearchMode,
    private readonly limits?: ToolLimits,
    /** Indexes kept between turns (the chat's); without it, each turn builds its own. */
    private readonly indexes: ToolIndexCache = new ToolIndexCache(),
    /** The skills offered this turn (the `load_skill` host tool; see turn-skills.ts). */
    skills?: ChatToolbox['skills'],
  ) {
    this.skills = new TurnSkills(skills);
    this.names = new ToolNameMap(identify(offered));
    this.all = offerTools(this.names);
    this.pinned = new Set(this.names.entries().flatMap(([name, tool]) => (tool.pinned ? [name] : [])));
  }

  /** What the next request carries, given the history so far (the searches in it). */
  plan(history: readonly ChatMessage[]): OfferPlan {
    const found = new Set(foundInHistory(history).flatMap((tool) => this.names.nameOf(tool) ?? []));
    const plan = planToolOffer({
      mode: this.mode,
      all: this.all,
      pinned: this.pinned,
      found,
      searchTool: SEARCH_TOOL,
      limits: this.limits,
    });
    this.searching = plan.kind === 'search';
    // The skill tool goes with every request that offers tools (skills are loaded on demand, like found tools).
    const skill = this.skills.tool;
    return skill && plan.kind !== 'over-limit' ? { ...plan, tools: [...plan.tools, skill] } : plan;
  }

  /** What the scanner says of a stuffed description (undefined: not stuffed). Descriptions repeat across turns: asked once each. */
  private stuffing(description: string | undefined): string | undefined {
    if (!description) return undefined;
    const found = stuffingFinding(description);
    return found ? `${found.note}: ${found.match}` : undefined;
  }

  /** A call the host answers itself: the search tool, while search is engaged. */
  isSearchCall(call: ToolUseBlock): boolean {
    return this.searching && !call.serverId && call.name === TOOL_SEARCH_TOOL_NAME;
  }

  /** The host's answer to a search call, stored like any tool result (with what it found). */
  answerSearch(call: ToolUseBlock): ToolResultBlock {
    const input = parseSearchInput(call.input);
    if ('error' in input) {
      return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: input.error }], isError: true, outcome: 'error' };
    }
    this.index ??= this.indexes.get(
      this.names.entries().map(([name, tool]) => {
        const stuffed = this.stuffing(tool.description);
        return { ...tool, name, paramNames: paramNamesOf(tool.inputSchema), ...(stuffed ? { stuffed: true } : {}) };
      }),
    );
    const hits = this.index.search(input.query, input.limit);
    return {
      type: 'tool_result',
      toolUseId: call.id,
      content: [
        {
          type: 'text',
          text: searchAnswer(
            input.query,
            hits.map((hit) => ({ ...hit, ...(hit.stuffed ? { flagged: this.stuffing(hit.description) } : {}) })),
          ),
        },
      ],
      isError: false,
      outcome: 'done',
      toolSearch: {
        query: input.query,
        found: hits.map((hit) => {
          const tool = this.names.resolve(hit.name)!;
          const flagged = hit.stuffed ? this.stuffing(hit.description) : undefined;
          return {
            serverId: tool.serverId,
            toolName: tool.toolName,
            name: hit.name,
            serverName: tool.serverName,
            ...(flagged ? { flagged } : {}),
          };
        }),
      },
    };
  }
}
