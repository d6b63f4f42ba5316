/**
 * A server's tools, resources and prompts: fetched when it becomes ready (only for the
 * capabilities it declares, every page), and kept fresh from `notifications/…/list_changed`.
 */
import type { Client, ListChangedHandlers, RequestOptions, ServerCapabilities } from '@modelcontextprotocol/client';
import { emptyCatalog, type ServerCatalog } from './server-state';

/**
 * Fetches the lists the server declares. The SDK's no-cursor `list*()` walks every page by
 * `nextCursor` (capped by `listMaxPages`), so a paginating server yields its complete lists.
 */
export async function fetchCatalog(
  client: Client,
  capabilities: ServerCapabilities,
  options: RequestOptions,
  onPhase?: (what: string) => void,
): Promise<ServerCatalog> {
  const catalog: ServerCatalog = emptyCatalog();
  // `bypass`: never served from, nor serialized into, the SDK's cache (the catalog is Patchbay's: see response-cache.ts).
  const request = { ...options, cacheMode: 'bypass' as const };
  const lists: { [K in keyof ServerCatalog]: () => Promise<ServerCatalog[K]> } = {
    tools: async () => (await client.listTools(undefined, request)).tools,
    resources: async () => (await client.listResources(undefined, request)).resources,
    prompts: async () => (await client.listPrompts(undefined, request)).prompts,
  };
  const kinds = (Object.keys(lists) as (keyof ServerCatalog)[]).filter((kind) => capabilities[kind]);
  if (kinds.length === 0) return catalog;
  onPhase?.(joinKinds(kinds));
  // In parallel: one round trip instead of three, which a remote server's latency makes worth it.
  await Promise.all(
    kinds.map(async (kind) => {
      try {
        (catalog as Record<keyof ServerCatalog, unknown>)[kind] = await lists[kind]();
      } catch (error) {
        onPhase?.(kind); // the failure message names the list that failed
        throw error;
      }
    }),
  );
  return catalog;
}

/** "tools", "tools and prompts", "tools, resources and prompts". */
function joinKinds(kinds: string[]): string {
  return kinds.length <= 1 ? (kinds[0] ?? '') : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
}

/**
 * The `listChanged` option for a `Client`: the SDK re-fetches the whole (paginated) list on
 * `notifications/{tools,resources,prompts}/list_changed` — or over `subscriptions/listen` on a
 * modern-era connection — and hands it to `onList`. Only active for lists whose `listChanged`
 * capability the server declares.
 */
export function listChangedHandlers(
  onList: <K extends keyof ServerCatalog>(kind: K, items: ServerCatalog[K]) => void,
  onError: (kind: keyof ServerCatalog, error: Error) => void,
  debounceMs: number,
): ListChangedHandlers {
  return {
    tools: { debounceMs, onChanged: (error, items) => (error ? onError('tools', error) : items && onList('tools', items)) },
    resources: {
      debounceMs,
      onChanged: (error, items) => (error ? onError('resources', error) : items && onList('resources', items)),
    },
    prompts: { debounceMs, onChanged: (error, items) => (error ? onError('prompts', error) : items && onList('prompts', items)) },
  };
}
