import type { contentAuditMethods, HandlersFor, resourceMethods, ResourceTemplateView } from '@contract';
import type { ContentAuditStore } from '../audit/content-audit-store';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { READ_RESOURCES, type ResourceReader } from './resource-reader';
import type { ResourceSubscriptions } from './resource-subscriptions';
import { toTemplateView, type ResourcePager, type ServerLists } from './resource-views';

export interface ResourceHandlerDeps {
  connection(serverId: string): LiveServer | undefined;
  readyNow(serverId: string): ReadyServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  serverName(serverId: string): string | undefined;
  reader: ResourceReader;
  pager: ResourcePager;
  subscriptions: ResourceSubscriptions;
  audit: ContentAuditStore;
  now(): Date;
}

/**
 * The lists of the given servers that are ready, in the order asked. A server that is not ready
 * simply has nothing to list (the tab says "start it"); an unknown id is skipped the same way.
 */
export function readyLists(deps: Pick<ResourceHandlerDeps, 'readyNow'>, serverIds: readonly string[]): ServerLists[] {
  return serverIds.flatMap((serverId) => {
    const connection = deps.readyNow(serverId);
    return connection ? [{ serverId, serverName: connection.name, catalog: connection.catalog }] : [];
  });
}

/** The contract's resource and content-audit methods. */
export function createResourceHandlers(deps: ResourceHandlerDeps): HandlersFor<typeof resourceMethods & typeof contentAuditMethods> {
  const audited = (action: 'subscribe' | 'unsubscribe', serverId: string, uri: string, error?: string) =>
    deps.audit.record({
      action,
      serverId,
      serverName: deps.connection(serverId)?.name ?? deps.serverName(serverId) ?? serverId,
      target: uri,
      outcome: error ? 'error' : 'ok',
      ...(error ? { error } : {}),
      at: deps.now().toISOString(),
    });
  return {
    listResources: async ({ serverIds, filter, offset, limit }) => deps.pager.page(readyLists(deps, serverIds), filter, offset, limit),

    listResourceTemplates: async ({ serverIds }) => {
      const lists = readyLists(deps, serverIds);
      const templates: ResourceTemplateView[] = lists.flatMap((l) =>
        l.catalog.resourceTemplates.map((t) => toTemplateView(l.serverId, l.serverName, t)),
      );
      return { templates, notes: lists.flatMap((l) => (l.catalog.notes?.resourceTemplates ? [l.catalog.notes.resourceTemplates] : [])) };
    },

    refreshResources: async ({ serverId }) => {
      const connection = deps.ready(serverId, READ_RESOURCES);
      await Promise.all([connection.refreshContentList('resources'), connection.refreshContentList('resourceTemplates')]);
    },

    readResource: async ({ serverId, uri, purpose }) => deps.reader.read(serverId, uri, purpose),

    getResourcePart: async ({ readId, index, offset, limit }) => deps.reader.part(readId, index, offset, limit),

    subscribeResource: async ({ serverId, uri }) => {
      try {
        const list = await deps.subscriptions.subscribe(serverId, uri);
        audited('subscribe', serverId, uri);
        return list;
      } catch (error) {
        audited('subscribe', serverId, uri, (error as Error).message);
        throw error;
      }
    },

    unsubscribeResource: async ({ serverId, uri }) => {
      const list = await deps.subscriptions.unsubscribe(serverId, uri);
      audited('unsubscribe', serverId, uri);
      return list;
    },

    listContentAudit: async ({ limit, before }) => deps.audit.page({ limit, ...(before !== undefined ? { before } : {}) }),
  };
}
