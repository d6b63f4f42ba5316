/**
 * A server's tools, resources, resource templates and prompts: fetched when it becomes ready (only for
 * the capabilities it declares, every page), and kept fresh from `notifications/…/list_changed`.
 *
 * Tools go through the SDK's own list walk (`cacheMode: 'bypass'`: the catalog is Patchbay's one copy,
 * never served from nor serialized into the SDK's response cache; see response-cache.ts). Every list
 * goes through `sharedList`: servers that list the same definitions share one frozen copy.
 * The content lists (resources, templates, prompts) are walked by `walkList`, page by page, so a
 * server with 100,000 resources or a looping cursor is listed as far as sensible and says why it
 * stops. A failing content list does not fail the start: the server is usable for its tools, and the
 * catalog notes what went wrong.
 */
import type { Client, ListChangedHandlers, RequestMethod, RequestOptions, ServerCapabilities } from '@modelcontextprotocol/client';
import { walkList, type ListPage } from './list-walker';
import { sharedList } from './shared-lists';
import { CONTENT_LISTS, emptyCatalog, type ContentListKind, type ServerCatalog } from './server-state';

/** The JSON-RPC method and the words for each content list. */
const CONTENT_METHODS: Record<ContentListKind, { method: RequestMethod; what: string; capability: 'resources' | 'prompts' }> = {
  resources: { method: 'resources/list', what: 'resources', capability: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', what: 'resource templates', capability: 'resources' },
  prompts: { method: 'prompts/list', what: 'prompts', capability: 'prompts' },
};

export interface CatalogFetchOptions {
  serverName: string;
  /** "tools", "tools, resources and prompts"…: what is being listed, then progress on a long list. */
  onPhase?: (what: string) => void;
}

/**
 * Fetches the lists the server declares (tools bypass the SDK's cache, so a fresh connection is never
 * served a previous one's list).
 */
export async function fetchCatalog(
  client: Client,
  capabilities: ServerCapabilities,
  options: RequestOptions,
  fetchOptions: CatalogFetchOptions,
): Promise<ServerCatalog> {
  const catalog: ServerCatalog = emptyCatalog();
  const kinds = [
    ...(capabilities.tools ? ['tools'] : []),
    ...(capabilities.resources ? ['resources'] : []),
    ...(capabilities.prompts ? ['prompts'] : []),
  ];
  if (kinds.length === 0) return catalog;
  const { onPhase } = fetchOptions;
  onPhase?.(joinKinds(kinds));
  const contentKinds = CONTENT_LISTS.filter((kind) => capabilities[CONTENT_METHODS[kind].capability]);
  // In parallel: one round trip instead of several, which a remote server's latency makes worth it.
  await Promise.all([
    capabilities.tools
      ? (async () => {
          try {
            catalog.tools = sharedList((await client.listTools(undefined, { ...options, cacheMode: 'bypass' })).tools);
          } catch (error) {
            onPhase?.('tools'); // the failure message names the list that failed
            throw error;
          }
        })()
      : undefined,
    ...contentKinds.map(async (kind) => {
      const { items, note } = await fetchContentList(client, kind, options, fetchOptions.serverName, (count) =>
        onPhase?.(`${CONTENT_METHODS[kind].what} (${count.toLocaleString('en-US')} so far)`),
      );
      (catalog as unknown as Record<ContentListKind, unknown[]>)[kind] = items;
      if (note) catalog.notes = { ...catalog.notes, [kind]: note };
    }),
  ]);
  return catalog;
}

/**
 * One content list, walked to its end. Never rejects: a failure comes back as an empty list with a
 * note naming the server and the cause (the caller keeps the server usable).
 */
export async function fetchContentList<K extends ContentListKind>(
  client: Client,
  kind: K,
  options: RequestOptions,
  serverName: string,
  onProgress?: (count: number) => void,
): Promise<{ items: ServerCatalog[K]; note?: string }> {
  const { method, what } = CONTENT_METHODS[kind];
  const key = kind === 'resourceTemplates' ? 'resourceTemplates' : kind;
  let pages = 0;
  try {
    const walk = await walkList(
      async (cursor) => {
        const params = cursor === undefined ? {} : { cursor };
        const result = (await client.request({ method, params }, options)) as Record<string, unknown>;
        const items = result[key];
        return { items: Array.isArray(items) ? items : [], nextCursor: result.nextCursor } as ListPage<ServerCatalog[K][number]>;
      },
      {
        what,
        serverName,
        // Progress only for lists long enough to notice (every 10th page).
        onPage: (count) => ++pages % 10 === 0 && onProgress?.(count),
      },
    );
    return { items: sharedList(walk.items) as ServerCatalog[K], ...(walk.incomplete ? { note: walk.incomplete } : {}) };
  } catch (error) {
    return {
      items: [] as unknown as ServerCatalog[K],
      note: `Server "${serverName}" could not list its ${what}: ${(error as Error).message}`,
    };
  }
}

/** "tools", "tools and prompts", "tools, resources and prompts". */
function joinKinds(kinds: string[]): string {
  return kinds.length <= 1 ? (kinds[0] ?? '') : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
}

/**
 * The `listChanged` option for a `Client`. Tools: the SDK re-fetches the whole list on
 * `notifications/tools/list_changed` (or over `subscriptions/listen` on a modern-era connection) and
 * hands it to `onTools`. Resources and prompts: the SDK only reports the change (`autoRefresh: false`)
 * and `onStale` walks the list again with `fetchContentList`. Only active for lists whose
 * `listChanged` capability the server declares.
 */
export function listChangedHandlers(
  onTools: (items: ServerCatalog['tools']) => void,
  onStale: (kind: 'resources' | 'prompts') => void,
  onError: (kind: 'tools', error: Error) => void,
  debounceMs: number,
): ListChangedHandlers {
  return {
    tools: { debounceMs, onChanged: (error, items) => (error ? onError('tools', error) : items && onTools(sharedList(items))) },
    resources: { debounceMs, autoRefresh: false, onChanged: () => onStale('resources') },
    prompts: { debounceMs, autoRefresh: false, onChanged: () => onStale('prompts') },
  };
}
