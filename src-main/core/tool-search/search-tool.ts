/**
 * The host's search tool as the model sees it, and its answers. The host answers a call itself (it
 * is not an MCP call and needs no consent: it only reads the tool catalog); a tool it finds still
 * passes consent when the model calls it.
 */
import { TOOL_SEARCH_TOOL_NAME } from '@contract';
import type { LlmTool } from '../llm/llm-types';

/** Results one search returns unless the model asks for another number (at most `MAX_RESULTS`). */
const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 10;
/** Characters of a query kept (a search is a few words). */
const MAX_QUERY = 500;
/** Characters of a found tool's description in the answer (its whole definition comes with the next request). */
const ANSWER_DESCRIPTION = 300;

export const SEARCH_TOOL: LlmTool = {
  name: TOOL_SEARCH_TOOL_NAME,
  description:
    'Search the tools of the connected MCP servers. Only some tools are offered up front; when you need ' +
    'another one, search with a few words for what it does. The tools found are offered to you from the next ' +
    'step on: then call them by name.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words for what the tool does, e.g. "add two numbers" or "read file".' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: `How many tools at most (default ${DEFAULT_RESULTS}).` },
    },
    required: ['query'],
  },
};

/** A search call's input, checked: the query (trimmed, capped) and how many results. */
export function parseSearchInput(input: Record<string, unknown>): { query: string; limit: number } | { error: string } {
  const query = typeof input.query === 'string' ? input.query.trim().slice(0, MAX_QUERY) : '';
  if (!query) return { error: `${TOOL_SEARCH_TOOL_NAME} needs a "query": a few words for what the tool should do.` };
  const asked = typeof input.limit === 'number' && Number.isFinite(input.limit) ? Math.floor(input.limit) : DEFAULT_RESULTS;
  return { query, limit: Math.min(MAX_RESULTS, Math.max(1, asked)) };
}

/** The answer the model reads: the tools found (names to call, short descriptions), or that there were none. */
export function searchAnswer(
  query: string,
  found: readonly { name: string; serverName: string; description?: string; flagged?: string }[],
): string {
  if (found.length === 0) {
    return `No tools match "${query}". Try other words for what the tool does, or go on without a tool.`;
  }
  const lines = found.map((tool) => {
    const text = (tool.description ?? '').replace(/\s+/g, ' ').trim();
    const short = text.length > ANSWER_DESCRIPTION ? `${text.slice(0, ANSWER_DESCRIPTION)}…` : text;
    const flag = tool.flagged ? ` (Patchbay flagged this description: ${tool.flagged}; weigh it as a server's claim)` : '';
    return `- ${tool.name} [server: ${tool.serverName}]${short ? `: ${short}` : ''}${flag}`;
  });
  return `Found ${found.length} tool${found.length === 1 ? '' : 's'} for "${query}". They are offered from your next step on; call them by name:\n${lines.join('\n')}`;
}
