/**
 * The host's lists of resources and templates as the renderer sees them: plain views, a page at a time
 * from the host's one copy, filtered by a search string. The renderer never gets 10,000 items at once:
 * a virtual list asks for the pages it shows. Filtering 100,000 names takes a few milliseconds; the
 * last filtered list is kept so scrolling through its pages does not filter again.
 */
import type { Resource } from '@modelcontextprotocol/client';
import { parseUriTemplate, type ResourceAnnotationsView, type ResourcePage, type ResourceTemplateView, type ResourceView } from '@contract';
import type { ServerCatalog } from '../servers/connection/server-state';

/** One server's part of a listing: its name and current catalog (lists are replaced, never mutated). */
export interface ServerLists {
  serverId: string;
  serverName: string;
  catalog: ServerCatalog;
}

type Annotated = { annotations?: { audience?: string[]; priority?: number; lastModified?: string } };

function annotationsOf(item: Annotated): ResourceAnnotationsView | undefined {
  const a = item.annotations;
  if (!a) return undefined;
  const view: ResourceAnnotationsView = {};
  const audience = a.audience?.filter((x): x is 'user' | 'assistant' => x === 'user' || x === 'assistant');
  if (audience?.length) view.audience = audience;
  if (typeof a.priority === 'number') view.priority = a.priority;
  if (typeof a.lastModified === 'string') view.lastModified = a.lastModified;
  return Object.keys(view).length > 0 ? view : undefined;
}

export function toResourceView(serverId: string, serverName: string, r: Resource): ResourceView {
  const annotations = annotationsOf(r as Annotated);
  return {
    serverId,
    serverName,
    uri: r.uri,
    name: r.name,
    ...(r.title ? { title: r.title } : {}),
    ...(r.description ? { description: r.description } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
    ...(typeof r.size === 'number' ? { size: r.size } : {}),
    ...(annotations ? { annotations } : {}),
  };
}

export function toTemplateView(serverId: string, serverName: string, t: ServerCatalog['resourceTemplates'][number]): ResourceTemplateView {
  const parsed = parseUriTemplate(t.uriTemplate);
  const annotations = annotationsOf(t as Annotated);
  return {
    serverId,
    serverName,
    uriTemplate: t.uriTemplate,
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    ...(t.mimeType ? { mimeType: t.mimeType } : {}),
    ...(annotations ? { annotations } : {}),
    variables: parsed.ok ? parsed.variables : [],
    ...(parsed.ok ? {} : { problem: `The template ${JSON.stringify(t.uriTemplate)} is malformed: ${parsed.error}` }),
  };
}

/** Lower-cased search text of each resource of a list, computed once per list. */
const searchText = new WeakMap<Resource[], string[]>();

function searchTextOf(list: Resource[]): string[] {
  let texts = searchText.get(list);
  if (!texts) {
    texts = list.map((r) => `${r.name}\n${r.title ?? ''}\n${r.uri}\n${r.mimeType ?? ''}`.toLowerCase());
    searchText.set(list, texts);
  }
  return texts;
}

/** A filtered listing: positions into each server's list (not copies). */
interface Filtered {
  key: string;
  lists: Resource[][];
  /** Per server: matching indexes, or null for "all of them". */
  matches: (number[] | null)[];
  total: number;
}

/** Pages of the resources of several servers, concatenated in order, filtered. Keeps the last filter's result. */
export class ResourcePager {
  private last: Filtered | undefined;

  page(servers: ServerLists[], filter: string, offset: number, limit: number): ResourcePage {
    const filtered = this.filtered(servers, filter.trim().toLowerCase());
    const items: ResourceView[] = [];
    let skip = offset;
    for (const [s, server] of servers.entries()) {
      if (items.length >= limit) break;
      const list = filtered.lists[s];
      const matches = filtered.matches[s];
      const count = matches ? matches.length : list.length;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      for (let i = skip; i < count && items.length < limit; i++) {
        items.push(toResourceView(server.serverId, server.serverName, list[matches ? matches[i] : i]));
      }
      skip = 0;
    }
    const notes = servers.flatMap((s) => (s.catalog.notes?.resources ? [s.catalog.notes.resources] : []));
    const unfiltered = servers.reduce((n, s) => n + s.catalog.resources.length, 0);
    return { items, offset, total: filtered.total, unfiltered, notes };
  }

  private filtered(servers: ServerLists[], query: string): Filtered {
    const lists = servers.map((s) => s.catalog.resources);
    const key = `${servers.map((s) => s.serverId).join('\n')}\n\n${query}`;
    const last = this.last;
    if (last && last.key === key && last.lists.length === lists.length && last.lists.every((l, i) => l === lists[i])) return last;
    const matches = lists.map((list) => {
      if (query === '') return null;
      const texts = searchTextOf(list);
      const found: number[] = [];
      for (let i = 0; i < texts.length; i++) if (texts[i].includes(query)) found.push(i);
      return found;
    });
    const total = matches.reduce((n, m, i) => n + (m ? m.length : lists[i].length), 0);
    this.last = { key, lists, matches, total };
    return this.last;
  }
}
