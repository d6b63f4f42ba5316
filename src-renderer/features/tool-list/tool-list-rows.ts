/**
 * The rows of a tool list: group headings and tools, flattened for a virtualised list, after the
 * search and the folds. Kept apart from the component so the rules read (and test) on their own.
 */
import type { ContentFlag } from '@contract';

/** One tool as a list shows it. */
export interface ToolListItem {
  serverId: string;
  name: string;
  /** Tells rows apart where names may repeat in one group (a server's skills); default the name. */
  id?: string;
  title?: string;
  description?: string;
  /** What the content scanner flagged in its title and description (the row says "Flagged"). */
  flags?: readonly ContentFlag[];
}

/** A tool of the host's offer snapshot as a list row. */
export function toolListItem(t: {
  serverId: string;
  tool: string;
  title?: string;
  description?: string;
  flags?: readonly ContentFlag[];
}): ToolListItem {
  return {
    serverId: t.serverId,
    name: t.tool,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    ...(t.flags?.length ? { flags: t.flags } : {}),
  };
}

/** A server's heading in the list. */
export interface ToolListGroup {
  id: string;
  name: string;
}

export type ToolListRow =
  | { kind: 'group'; group: ToolListGroup; shown: number; total: number; folded: boolean }
  | { kind: 'tool'; tool: ToolListItem; group: ToolListGroup };

/** The search's words, any case: parsed once a search, not once a tool. */
function searchWords(search: string): string[] {
  return search.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/** Each tool's name, title and description in lower case, made once per tool object (a list keeps its objects). */
const haystacks = new WeakMap<ToolListItem, string>();
function haystackOf(tool: ToolListItem): string {
  let text = haystacks.get(tool);
  if (text === undefined) haystacks.set(tool, (text = `${tool.name} ${tool.title ?? ''} ${tool.description ?? ''}`.toLowerCase()));
  return text;
}

/**
 * The rows: with headings (`grouped`), each group's heading then its matching tools unless folded;
 * while searching a folded group still shows its matches (the search is what was asked for), and a
 * group with none is left out.
 */
export function toolListRows(
  groups: readonly ToolListGroup[],
  tools: readonly ToolListItem[],
  search: string,
  folded: ReadonlySet<string>,
  grouped: boolean,
): ToolListRow[] {
  const words = searchWords(search);
  const searching = words.length > 0;
  const byGroup = new Map<string, ToolListItem[]>();
  const totals = new Map<string, number>();
  for (const tool of tools) {
    totals.set(tool.serverId, (totals.get(tool.serverId) ?? 0) + 1);
    // Every word in its name, title or description, any case.
    if (searching && !words.every((word) => haystackOf(tool).includes(word))) continue;
    const list = byGroup.get(tool.serverId);
    if (list) list.push(tool);
    else byGroup.set(tool.serverId, [tool]);
  }
  const rows: ToolListRow[] = [];
  for (const group of groups) {
    const mine = byGroup.get(group.id) ?? [];
    if (grouped) {
      if (searching && mine.length === 0) continue;
      const isFolded = folded.has(group.id) && !searching;
      rows.push({ kind: 'group', group, shown: mine.length, total: totals.get(group.id) ?? 0, folded: isFolded });
      if (isFolded) continue;
    }
    for (const tool of mine) rows.push({ kind: 'tool', tool, group });
  }
  return rows;
}
