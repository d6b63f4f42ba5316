/**
 * The full-text index tool search asks: every offered tool's API name, server, title, description and
 * parameter names, in MiniSearch (prefix and light fuzzy matching, the name weighted most). Built once
 * per turn from the tools offered then; what a tool says about itself is capped, so a server with a
 * 100 KB description cannot make the index (or a search answer) large.
 */
import MiniSearch from 'minisearch';

/** Characters of a description the index reads (a search finds a tool by what it says first). */
export const MAX_INDEXED_DESCRIPTION = 1_000;
/** Parameter names the index reads per tool. */
const MAX_INDEXED_PARAMS = 50;

/** A tool as search sees it. `name` is its API name, unique within the index. */
export interface SearchableTool {
  name: string;
  serverName: string;
  toolName: string;
  title?: string;
  description?: string;
  paramNames: readonly string[];
}

interface IndexedDoc {
  id: number;
  name: string;
  server: string;
  title: string;
  description: string;
  params: string;
}

/** `getSum`, `get_sum`, `get-sum` and `GetSUM` all yield the words get and sum. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s\p{P}\p{S}]+/u)
    .filter((word) => word.length > 0);
}

/** The parameter names of a tool's input schema (its top-level properties). */
export function paramNamesOf(inputSchema: Record<string, unknown>): string[] {
  const properties = inputSchema.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties).slice(0, MAX_INDEXED_PARAMS) : [];
}

export class ToolIndex {
  private readonly search_: MiniSearch<IndexedDoc>;

  constructor(private readonly tools: readonly SearchableTool[]) {
    this.search_ = new MiniSearch<IndexedDoc>({
      fields: ['name', 'server', 'title', 'description', 'params'],
      tokenize,
      searchOptions: { prefix: true, fuzzy: 0.2, boost: { name: 3, title: 2, params: 1.5 }, combineWith: 'OR' },
    });
    this.search_.addAll(
      tools.map((tool, id) => ({
        id,
        name: tool.toolName,
        server: tool.serverName,
        title: tool.title ?? '',
        description: (tool.description ?? '').slice(0, MAX_INDEXED_DESCRIPTION),
        params: tool.paramNames.slice(0, MAX_INDEXED_PARAMS).join(' '),
      })),
    );
  }

  get size(): number {
    return this.tools.length;
  }

  /** The best matches, best first (none for a query without words or without a match). */
  search(query: string, limit: number): SearchableTool[] {
    if (tokenize(query).length === 0) return [];
    return this.search_
      .search(query)
      .slice(0, limit)
      .map((hit) => this.tools[hit.id as number]);
  }
}
