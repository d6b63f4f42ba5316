/**
 * The full-text index tool search asks: every offered tool's API name, server, title, description and
 * parameter names, in MiniSearch (prefix matching, the name weighted most, each word counted once per
 * field, stuffed descriptions ranked last: a description cannot buy its rank). Built once
 * per turn from the tools offered then; what a tool says about itself is capped, so a server with a
 * 100 KB description cannot make the index (or a search answer) large.
 */
import crypto from 'node:crypto';
import MiniSearch from 'minisearch';

/** Characters of a description the index reads (a search finds a tool by what it says first; the rest only slows the build). */
const MAX_INDEXED_DESCRIPTION = 500;
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
  /** The scanner found the description stuffed to win searches: ranked below every unflagged match. */
  stuffed?: boolean;
}

interface IndexedDoc {
  id: number;
  /** The tool's own name and title. */
  name: string;
  /** Its server's name, then its description. */
  text: string;
  params: string;
}

/** Words that tell tools apart by nothing (dropped: fewer entries make the build faster). */
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have if in into is it its of on or that the this to was when which will with'.split(' '),
);

/** Lower case; no stop words. */
function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return STOP_WORDS.has(word) ? null : word;
}

/** `getSum`, `get_sum`, `get-sum` and `GetSUM` all yield the words get and sum. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Each word once per field: a description that says "sum" forty times is no better a match for "sum"
 * than one that says it once (otherwise repetition buys rank).
 */
function tokenize(text: string): string[] {
  const seen = new Set<string>();
  return words(text).filter((word) => {
    const key = word.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The parameter names of a tool's input schema (its top-level properties). */
export function paramNamesOf(inputSchema: Record<string, unknown>): string[] {
  const properties = inputSchema.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties).slice(0, MAX_INDEXED_PARAMS) : [];
}

export class ToolIndex {
  private readonly search_: MiniSearch<IndexedDoc>;

  constructor(private readonly tools: readonly SearchableTool[]) {
    // Prefix matching ("sum" finds "summary") from three letters on; no fuzzy matching: a model spells
    // its query, and expanding every word to its near misses made a search over 2,000 tools several times slower.
    this.search_ = new MiniSearch<IndexedDoc>({
      fields: ['name', 'text', 'params'],
      tokenize,
      processTerm,
      searchOptions: { prefix: (term) => term.length >= 3, boost: { name: 4, params: 1.5 }, combineWith: 'OR' },
    });
    this.search_.addAll(
      tools.map((tool, id) => ({
        id,
        name: tool.title ? `${tool.toolName} ${tool.title}` : tool.toolName,
        text: `${tool.serverName} ${(tool.description ?? '').slice(0, MAX_INDEXED_DESCRIPTION)}`,
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
    // A stuffed description ranks after every match that is not (search is stable for equal keys).
    const hits = this.search_.search(query);
    const stuffed = (hit: (typeof hits)[number]) => (this.tools[hit.id as number].stuffed ? 1 : 0);
    return hits
      .sort((a, b) => stuffed(a) - stuffed(b))
      .slice(0, limit)
      .map((hit) => this.tools[hit.id as number]);
  }
}

/**
 * The index of the catalog searched last: later turns reuse it until the offered tools change (a
 * digest of everything the index reads tells), so only the first search after a change pays the build.
 */
export class ToolIndexCache {
  private last: { digest: string; index: ToolIndex } | undefined;

  get(tools: readonly SearchableTool[]): ToolIndex {
    const hash = crypto.createHash('sha256');
    for (const tool of tools) {
      hash.update(`${tool.name}\0${tool.serverName}\0${tool.toolName}\0${tool.title ?? ''}\0${tool.stuffed ? 1 : 0}\0`);
      hash.update(`${(tool.description ?? '').slice(0, MAX_INDEXED_DESCRIPTION)}\0${tool.paramNames.join('\0')}\u0001`);
    }
    const digest = hash.digest('hex');
    if (this.last?.digest !== digest) this.last = { digest, index: new ToolIndex(tools) };
    return this.last.index;
  }
}
