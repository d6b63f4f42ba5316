/**
 * A server's tools, resources and prompts: fetched when it becomes ready (only for the
 * capabilities it declares, every page), and kept fresh from `notifications/…/list_changed`.
 */
import type { Client, ListChangedHandlers, RequestOptions, ServerCapabilities } from '@modelcontextprotocol/client';
import { emptyCatalog, type ServerCatalog } from './server-state';

/**
 * Fetches the lists the server declares. The SDK's no-cursor `list*()` walks every page by
 * `nextCursor` (capped by `listMaxPages`), so a paginating server yields its complete lists.
 * `cacheMode: 'refresh'` because a fresh connection must never be served a previous one's list.
 */
export async function fetchCatalog(
  client: Client,
  capabilities: ServerCapabilities,
  options: RequestOptions,
  onPhase?: (what: keyof ServerCatalog) => void,
): Promise<ServerCatalog> {
  const catalog: ServerCatalog = emptyCatalog();
  const request = { ...options, cacheMode: 'refresh' as const };
  if (capabilities.tools) {
    onPhase?.('tools');
    catalog.tools = (await client.listTools(undefined, request)).tools;
  }
  if (capabilities.resources) {
    onPhase?.('resources');
    catalog.resources = (await client.listResources(undefined, request)).resources;
  }
  if (capabilities.prompts) {
    onPhase?.('prompts');
    catalog.prompts = (await client.listPrompts(undefined, request)).prompts;
  }
  return catalog;
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
