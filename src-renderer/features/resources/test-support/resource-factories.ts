import type { ResourcePage, ResourceReadView, ResourceView, ServerRuntime } from '@contract';

/** A Ready server's runtime that offers resources, prompts and completions (and subscriptions unless told). */
export function contentRuntime(extra: Partial<ServerRuntime> = {}): ServerRuntime {
  return {
    status: 'ready',
    since: '2026-01-01T00:00:00.000Z',
    capabilities: ['completions', 'prompts', 'resources', 'tools'],
    resourceSubscriptions: true,
    counts: { tools: 1, resources: 3, prompts: 1 },
    ...extra,
  };
}

/** `n` resources named item-0001… of server srv-1. */
export function resources(n: number, serverId = 'srv-1'): ResourceView[] {
  return Array.from({ length: n }, (_, i) => {
    const id = String(i + 1).padStart(4, '0');
    return { serverId, serverName: 'lab', uri: `lab://items/${id}`, name: `item-${id}`, mimeType: 'text/plain' };
  });
}

/** Answers `listResources` from a list the way the host does: filter, then the window asked for. */
export function pageOf(all: ResourceView[], input: { filter?: string; offset?: number; limit?: number }): ResourcePage {
  const filter = (input.filter ?? '').toLowerCase();
  const matching = filter ? all.filter((r) => `${r.name}\n${r.uri}`.toLowerCase().includes(filter)) : all;
  const offset = input.offset ?? 0;
  return {
    items: matching.slice(offset, offset + (input.limit ?? 100)),
    offset,
    total: matching.length,
    unfiltered: all.length,
    notes: [],
  };
}

/** A read answer with one text content. */
export function textRead(uri: string, text: string, mimeType = 'text/plain'): ResourceReadView {
  return {
    readId: 'read-1',
    serverId: 'srv-1',
    serverName: 'lab',
    uri,
    contents: [{ kind: 'text', uri, mimeType, text }],
    readAt: '2026-01-01T00:00:00.000Z',
    durationMs: 3,
  };
}

/**
 * jsdom lays nothing out: gives resource lists' scrollers (the virtualizer reads clientHeight) a
 * 440 px height. Call in `beforeAll`; returns the undo for `afterAll`.
 */
export function sizeResourceLists(): () => void {
  const real = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight')!;
  Object.defineProperty(Element.prototype, 'clientHeight', {
    configurable: true,
    get(this: Element) {
      return this.classList.contains('resource-list') ? 440 : real.get!.call(this);
    },
  });
  return () => Object.defineProperty(Element.prototype, 'clientHeight', real);
}
