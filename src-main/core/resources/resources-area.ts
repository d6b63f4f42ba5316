/**
 * Resources, composed for the composition root: the reader (audited reads, capped previews, slices),
 * the pager over the host's one copy of each server's lists, followed resources, the resource/prompt
 * use audit trail, and what host.ts wires in — a connection plugin, the handlers, the snapshot part.
 */
import type Database from 'better-sqlite3';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { contentAuditMethods, HandlersFor, resourceMethods, ResourcesSnapshot } from '@contract';
import { ContentAuditStore, type ContentAuditInput } from '../audit/content-audit-store';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { createResourceHandlers } from './resource-handlers';
import { ResourceReader } from './resource-reader';
import { ResourceSubscriptions } from './resource-subscriptions';
import { ResourcePager } from './resource-views';
import { SubscriptionRepository } from './subscription-repository';

export interface ResourcesAreaDeps {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  connection(serverId: string): LiveServer | undefined;
  readyNow(serverId: string): ReadyServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  /** A configured server's name (also when it is not running). */
  serverName(serverId: string): string | undefined;
}

export interface ResourcesArea {
  readonly name: 'resources';
  readonly reader: ResourceReader;
  readonly audit: ContentAuditStore;
  readonly plugin: ConnectionPlugin;
  readonly handlers: HandlersFor<typeof resourceMethods & typeof contentAuditMethods>;
  snapshot(): { resources: ResourcesSnapshot };
  /** For the chat: a resource read whole for an attachment (audited as a read), named as its server lists it. */
  readForAttachment(serverId: string, uri: string): Promise<{ result: ReadResourceResult; serverName: string; name?: string }>;
  /** For the chat: an attachment or prompt went into a conversation. */
  recordUse(use: Omit<ContentAuditInput, 'outcome' | 'at'>): void;
  dispose(): Promise<void>;
}

export function createResourcesArea(deps: ResourcesAreaDeps): ResourcesArea {
  const { events, clock } = deps;
  const audit = new ContentAuditStore(deps.db, (seq) => events.emit('contentAudited', { seq }));
  const reader = new ResourceReader({ ready: deps.ready, audit, clock });
  const subscriptions = new ResourceSubscriptions({
    repo: new SubscriptionRepository(deps.db),
    readyNow: deps.readyNow,
    ready: deps.ready,
    events,
    clock,
  });
  const pager = new ResourcePager();
  // Content lists seen per server: a catalog change that only touched tools is not news here.
  const seen = new Map<string, readonly unknown[]>();
  const plugin: ConnectionPlugin = {
    install(client, server) {
      client.setNotificationHandler('notifications/resources/updated', (notification) => {
        subscriptions.onUpdated(server.id, notification.params.uri);
      });
    },
    onStateChange: (server, state) => subscriptions.onStateChange(server.id, state.status),
    onCatalogChange: (server, catalog) => {
      const lists = [catalog.resources, catalog.resourceTemplates, catalog.prompts];
      const before = seen.get(server.id);
      if (before && before.every((list, i) => list === lists[i])) return;
      seen.set(server.id, lists);
      events.emit('serverContentChanged', { serverId: server.id });
    },
    onRemoved: (server) => {
      seen.delete(server.id);
      subscriptions.forget(server.id);
    },
  };
  return {
    name: 'resources',
    reader,
    audit,
    plugin,
    handlers: createResourceHandlers({
      connection: deps.connection,
      ready: deps.ready,
      readyNow: deps.readyNow,
      serverName: deps.serverName,
      reader,
      pager,
      subscriptions,
      audit,
      now: clock.now,
    }),
    snapshot: () => ({ resources: { subscriptions: subscriptions.list() } }),
    readForAttachment: async (serverId, uri) => {
      const read = await reader.fetch(serverId, uri, 'read', 'for a chat attachment');
      const name = deps.connection(serverId)?.catalog.resources.find((r) => r.uri === uri)?.name;
      return { ...read, ...(name ? { name } : {}) };
    },
    recordUse: (use) => audit.record({ ...use, outcome: 'ok', at: clock.now().toISOString() }),
    dispose: () => subscriptions.dispose(),
  };
}
