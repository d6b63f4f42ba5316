/**
 * Which tools one model request carries. With tool search engaged: the search tool, the pinned tools
 * and those found so far in the conversation; otherwise every offered tool. `automatic` engages
 * search when the offered tools are too many for the model (more than 40, or over a tenth of its
 * context, or over the API's hard limit). With search off, a request over the API's limit is not
 * sent at all: the chat says so instead of letting the provider refuse it.
 */
import type { ToolSearchMode } from '@contract';
import type { LlmTool } from '../llm/llm-types';
import type { ToolLimits } from '../llm/llm-types';
import { estimateTokens } from './token-estimate';

/** `automatic` engages past this many tools (models choose worse among more). */
const AUTOMATIC_MAX_TOOLS = 40;
/** …or when the tools' definitions would take more than this share of the context window. */
const AUTOMATIC_CONTEXT_SHARE = 0.1;
/** The context assumed when the provider does not say. */
const DEFAULT_CONTEXT_TOKENS = 200_000;

export type OfferPlan =
  { kind: 'all'; tools: LlmTool[] } | { kind: 'search'; tools: LlmTool[] } | { kind: 'over-limit'; count: number; limit: number };

interface OfferInput {
  mode: ToolSearchMode;
  /** Every tool the user offers this conversation, in listing order. */
  all: readonly LlmTool[];
  /** API names of the tools that always go up front. */
  pinned: ReadonlySet<string>;
  /** API names found by searches in this conversation. */
  found: ReadonlySet<string>;
  searchTool: LlmTool;
  limits?: ToolLimits;
}

/** Tokens the tool definitions cost, estimated from their JSON (a fast, rough measure: token-estimate.ts). */
function estimateToolTokens(tools: readonly LlmTool[]): number {
  return estimateTokens(JSON.stringify(tools).length);
}

/** Whether tool search should be engaged for these tools. */
function searchEngages(mode: ToolSearchMode, all: readonly LlmTool[], limits?: ToolLimits): boolean {
  if (all.length === 0 || mode === 'off') return false;
  if (mode === 'always') return true;
  if (all.length > AUTOMATIC_MAX_TOOLS) return true;
  if (limits?.maxTools !== undefined && all.length > limits.maxTools) return true;
  return estimateToolTokens(all) > (limits?.contextTokens ?? DEFAULT_CONTEXT_TOKENS) * AUTOMATIC_CONTEXT_SHARE;
}

export function planToolOffer(input: OfferInput): OfferPlan {
  const { all, limits } = input;
  const max = limits?.maxTools ?? Number.POSITIVE_INFINITY;
  if (!searchEngages(input.mode, all, limits)) {
    return all.length > max ? { kind: 'over-limit', count: all.length, limit: max } : { kind: 'all', tools: [...all] };
  }
  const pinned = all.filter((tool) => input.pinned.has(tool.name));
  const found = all.filter((tool) => input.found.has(tool.name) && !input.pinned.has(tool.name));
  // Never more than the API accepts: pinned tools first, then what was found.
  return { kind: 'search', tools: [input.searchTool, ...pinned, ...found].slice(0, max) };
}
