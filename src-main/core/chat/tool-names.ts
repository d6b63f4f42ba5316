/**
 * Names under which server tools are offered to the model. The Messages API wants
 * `^[a-zA-Z0-9_-]{1,64}$`; MCP tool names are free text and two servers may have tools of the same
 * name. So a tool is offered as `<server-slug>__<tool-slug>`, and when that is too long or is shared
 * by more than one tool (case-insensitively), every tool of that name gets a suffix hashed from its
 * server id and tool name. The names depend only on the set of tools, never on their order, so they
 * are the same after a restart; the map routes each name back to exactly one server and tool.
 */
import crypto from 'node:crypto';
import type { ChatToolRef } from '@contract';
import type { LlmTool } from '../llm/llm-types';

export const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;
const HASH_CHARS = 8;

/** Letters, digits, `_` and `-` only: runs of anything else become one `_`; `_` at the ends are dropped. */
export function slug(text: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return cleaned || 'x';
}

function stableHash(identity: ChatToolRef, salt = ''): string {
  return crypto.createHash('sha256').update(`${identity.serverId}\0${identity.toolName}${salt}`).digest('hex').slice(0, HASH_CHARS);
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_NAME - suffix.length - 1)}_${suffix}`;
}

/** Maps API names to tools and back, for one turn. */
export class ToolNameMap<T extends ChatToolRef = ChatToolRef> {
  private readonly byName = new Map<string, T>();
  private readonly byTool = new Map<string, string>();

  constructor(tools: readonly T[]) {
    const bases = tools.map((tool) => `${slug(tool.serverName)}__${slug(tool.toolName)}`);
    const count = new Map<string, number>();
    for (const base of bases) count.set(base.toLowerCase(), (count.get(base.toLowerCase()) ?? 0) + 1);

    const named = tools.map((tool, i) => {
      const base = bases[i];
      const plain = base.length <= MAX_NAME && count.get(base.toLowerCase()) === 1;
      return { tool, name: plain ? base : withSuffix(base, stableHash(tool)) };
    });
    // A second clash (a hashed name meeting another name) is astronomically rare; re-salt until unique.
    const taken = new Set<string>();
    for (const entry of [...named].sort((a, b) => key(a.tool).localeCompare(key(b.tool)))) {
      let name = entry.name;
      for (let salt = 1; taken.has(name.toLowerCase()); salt++) name = withSuffix(entry.name, stableHash(entry.tool, `#${salt}`));
      taken.add(name.toLowerCase());
      this.byName.set(name, entry.tool);
      this.byTool.set(key(entry.tool), name);
    }
  }

  get size(): number {
    return this.byName.size;
  }

  /** The tool an API name stands for, or undefined for a name we never offered. */
  resolve(apiName: string): T | undefined {
    return this.byName.get(apiName);
  }

  /** The API name of a tool. */
  nameOf(tool: Pick<ChatToolRef, 'serverId' | 'toolName'>): string | undefined {
    return this.byTool.get(key(tool));
  }

  entries(): [string, T][] {
    return [...this.byName.entries()];
  }
}

function key(tool: Pick<ChatToolRef, 'serverId' | 'toolName'>): string {
  return `${tool.serverId}\0${tool.toolName}`;
}

/** The tools of a toolbox listing, as offered to the model. */
export function offerTools(map: ToolNameMap<ChatToolRef & { description?: string; inputSchema: Record<string, unknown> }>): LlmTool[] {
  return map.entries().map(([name, tool]) => ({
    name,
    description: `[${tool.serverName}] ${tool.description ?? tool.toolName}`.slice(0, 10_000),
    inputSchema: tool.inputSchema,
  }));
}
