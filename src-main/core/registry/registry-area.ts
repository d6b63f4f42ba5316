import {
  escapeHiddenChars,
  HostCallError,
  type HandlersFor,
  type InstallSource,
  type RegistryEntry,
  type registryMethods,
  type RegistryPage,
} from '@contract';
import type { ServerConfigRepository } from '../server-config/server-config-repository';
import { uniqueServerName } from '../server-fleet/server-handlers';
import type { InstallKind } from '../install/install-kind';
import { fetchRegistryJson, type RegistryFetchOptions } from './registry-client';
import { buildRegistryServer, describeOption, optionFields, registryOptions } from './registry-command';
import { RegistryListSchema, RegistryResponseSchema, type RegistryResponse } from './registry-schema';

type RegistrySource = Extract<InstallSource, { kind: 'registry' }>;

export interface RegistryAreaDeps {
  repo: ServerConfigRepository;
  /** The `registryUrl` setting, read at each request. */
  registryUrl: () => string;
  fetch?: RegistryFetchOptions;
}

/** Entries kept for installing after a search; older ones are fetched again by name and version. */
const MAX_CACHED = 500;

/** Searching the MCP Registry, and installing its entries (an install kind). */
export function createRegistryArea(deps: RegistryAreaDeps) {
  /** Checked entries by id, with the registry they came from. */
  const cache = new Map<string, { base: string; response: RegistryResponse }>();
  const remember = (id: string, base: string, response: RegistryResponse) => {
    cache.delete(id);
    cache.set(id, { base, response });
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  };

  const base = () => deps.registryUrl().replace(/\/+$/, '');

  const entryOf = async (entryId: string): Promise<RegistryResponse> => {
    const at = base();
    const cached = cache.get(entryId);
    if (cached && cached.base === at) return cached.response;
    const split = entryId.lastIndexOf('@');
    if (split <= 0) throw new HostCallError('invalid_input', 'Unknown registry entry: search again');
    const [name, version] = [entryId.slice(0, split), entryId.slice(split + 1)];
    const url = new URL(`${at}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
    const parsed = RegistryResponseSchema.safeParse(await fetchRegistryJson(url, deps.fetch));
    if (!parsed.success) throw new HostCallError('invalid_input', `The registry's entry for ${name} is not valid: search again`);
    remember(entryId, at, parsed.data);
    return parsed.data;
  };

  const optionOf = async (source: RegistrySource) => {
    const response = await entryOf(source.entryId);
    const option = registryOptions(response.server)[source.option];
    if (!option) throw new HostCallError('invalid_input', 'That way of installing is not part of the entry: search again');
    return { response, option };
  };

  const handlers: HandlersFor<typeof registryMethods> = {
    searchRegistry: async ({ query, cursor, limit }): Promise<RegistryPage> => {
      const at = base();
      let url: URL;
      try {
        url = new URL(`${at}/v0.1/servers`);
      } catch {
        throw new HostCallError('invalid_input', `The Registry URL ${at} is not a URL: fix it in Settings`);
      }
      if (query) url.searchParams.set('search', query);
      if (cursor) url.searchParams.set('cursor', cursor);
      url.searchParams.set('limit', String(limit));
      url.searchParams.set('version', 'latest');
      const list = RegistryListSchema.safeParse(await fetchRegistryJson(url, deps.fetch));
      if (!list.success) {
        throw new HostCallError(
          'internal',
          `The registry at ${url.origin} answered with something that is not a server list: is the Registry URL right?`,
        );
      }
      const page: RegistryPage = { registryUrl: at, entries: [], skipped: [] };
      for (const item of list.data.servers) {
        const parsed = RegistryResponseSchema.safeParse(item);
        if (!parsed.success) {
          const raw = (item as { server?: { name?: unknown } } | null)?.server?.name;
          const issue = parsed.error.issues[0];
          const name = typeof raw === 'string' ? plainText(raw) : '';
          page.skipped.push({
            ...(name ? { name } : {}),
            reason: plainText(`${issue.path.join('.') || 'entry'}: ${issue.message}`),
          });
          continue;
        }
        const entry = toEntry(parsed.data);
        remember(entry.id, at, parsed.data);
        page.entries.push(entry);
      }
      const next = list.data.metadata?.nextCursor;
      if (next) page.nextCursor = next;
      return page;
    },
  };

  const installer: InstallKind<RegistrySource> = {
    async plan(source) {
      const { response, option } = await optionOf(source);
      const entry = toEntry(response);
      const chosen = entry.options[source.option];
      if (!chosen.supported) throw new HostCallError('invalid_input', `This entry cannot be installed: ${chosen.unsupportedReason}`);
      const official = response._meta?.['io.modelcontextprotocol.registry/official'];
      return {
        about: {
          title: entry.title ?? entry.name,
          description: entry.description,
          facts: [
            { label: 'Name', value: entry.name },
            { label: 'Version', value: entry.version },
            { label: 'Publisher', value: entry.publisher },
            { label: 'Install', value: chosen.label },
            ...(entry.repositoryUrl ? [{ label: 'Repository', value: entry.repositoryUrl }] : []),
          ],
          warnings:
            official?.status && official.status !== 'active'
              ? [`The registry marks it ${official.status}${official.statusMessage ? `: ${official.statusMessage}` : ''}`]
              : [],
        },
        suggestedName: uniqueServerName(deps.repo, entry.title ?? entry.name.split('/')[1]),
        fields: optionFields(option),
        startByDefault: true,
      };
    },
    async build(source, name, values) {
      const { option } = await optionOf(source);
      return buildRegistryServer(option, name, values);
    },
  };

  return { name: 'registry', handlers, installer };
}

/** An entry as the dialog lists it. */
function toEntry(response: RegistryResponse): RegistryEntry {
  const { server } = response;
  const options = registryOptions(server).map(describeOption);
  const kinds = [
    ...new Set(options.map((option) => (option.kind === 'streamable-http' || option.kind === 'sse' ? 'remote' : option.kind))),
  ];
  const status = response._meta?.['io.modelcontextprotocol.registry/official']?.status;
  return {
    id: `${server.name}@${server.version}`,
    name: server.name,
    ...(server.title ? { title: server.title } : {}),
    description: server.description,
    version: server.version,
    publisher: server.name.split('/')[0],
    ...(server.repository?.url && isWebUrl(server.repository.url) ? { repositoryUrl: server.repository.url } : {}),
    ...(server.websiteUrl ? { websiteUrl: server.websiteUrl } : {}),
    ...(status ? { status } : {}),
    kinds,
    options,
  };
}

/** Only web pages are offered as a repository: a `javascript:` or `file:` URL from a registry is dropped. */
function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url) && URL.canParse(url);
}

/**
 * An invalid entry's name as the left-out note may quote it: markup removed (a name is never HTML),
 * hidden characters shown as escapes, and short.
 */
function plainText(raw: string): string {
  return escapeHiddenChars(raw.replace(/<[^>]*>?/g, '').replace(/[<>]/g, ''))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
