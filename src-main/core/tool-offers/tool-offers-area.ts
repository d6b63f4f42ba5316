/**
 * Builds the tool-offers area for the composition root: the user's per-tool choices (offered, pinned,
 * what new tools start as) and tool sets, the filter the chat's toolbox applies, the snapshot part,
 * the handlers, and the connection plugin that records tools at first sight.
 */
import type Database from 'better-sqlite3';
import type { ConversationSummary, ToolOffersSnapshot } from '../../../src-preload/contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import { listFleetTools, type FleetTool } from '../server-fleet/fleet-tools';
import type { ServerFleet } from '../server-fleet/server-fleet';
import { offeredTools } from './offered-tools';
import { createToolOfferHandlers } from './tool-offer-handlers';
import { ToolOfferRepository, type ToolChoice } from './tool-offer-repository';
import { ToolSetRepository } from './tool-set-repository';
import { ToolSets } from './tool-sets';

export interface ToolOffersAreaOptions {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  fleet: Pick<ServerFleet, 'list' | 'connection'>;
  /** A configured server's name; undefined once it is removed. */
  serverName(id: string): string | undefined;
  /** The conversation's tool set changed (null: none). */
  setConversationToolSet(conversationId: string, toolSetId: string | null): ConversationSummary;
  /** A set was deleted: conversations and the default that used it go back to every offered tool. */
  onSetDeleted(id: string): void;
}

export function createToolOffersArea(options: ToolOffersAreaOptions) {
  const { events, fleet } = options;
  const offers = new ToolOfferRepository(options.db);
  const sets = new ToolSets(new ToolSetRepository(options.db), fleet, options.serverName, options.clock);
  const offerNew = (serverId: string) => offers.offerNew()[serverId] ?? true;

  /** Choices per server for one pass; a tool without a row (not yet recorded) follows its server's default. */
  const choicesReader = () => {
    const defaults = offers.offerNew();
    const cache = new Map<string, Map<string, ToolChoice>>();
    return (serverId: string, tool: string): ToolChoice => {
      let choices = cache.get(serverId);
      if (!choices) cache.set(serverId, (choices = offers.choices(serverId)));
      return choices.get(tool) ?? { offered: defaults[serverId] ?? true, pinned: false };
    };
  };

  const snapshot = (): ToolOffersSnapshot => {
    const choiceOf = choicesReader();
    const tools = listFleetTools(fleet).map(({ serverId, serverName, tool }) => ({
      serverId,
      serverName,
      tool: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      ...choiceOf(serverId, tool.name),
    }));
    return { tools, offerNew: offers.offerNew(), sets: sets.list() };
  };

  // Catalogs and states change in bursts (a server starting, fifty at launch): one event per burst, and
  // none when nothing the renderer shows changed.
  let pending: NodeJS.Immediate | undefined;
  let lastSent = '';
  let closed = false;
  const changed = () => {
    if (closed) return;
    pending ??= setImmediate(() => {
      pending = undefined;
      const next = snapshot();
      const json = JSON.stringify(next);
      if (json === lastSent) return;
      lastSent = json;
      events.emit('toolOffersChanged', next);
    });
  };
  /** After the user's own change: the answer and the event carry the same snapshot. */
  const changedNow = (): ToolOffersSnapshot => {
    const next = snapshot();
    lastSent = JSON.stringify(next);
    events.emit('toolOffersChanged', next);
    return next;
  };

  const plugin: ConnectionPlugin = {
    // At ready and after each list_changed: tools never seen before start as the server's default says.
    onCatalogChange: (server, catalog) => {
      offers.recordFirstSight(
        server.id,
        catalog.tools.map((tool) => tool.name),
        offerNew(server.id),
      );
      changed();
    },
    onStateChange: () => changed(),
    onRemoved: (server) => {
      offers.forgetServer(server.id);
      changed();
    },
  };

  return {
    plugin,
    snapshot,
    /** What `ChatToolbox.list` returns: the tools offered to the model, within the conversation's set. */
    offered: (entries: readonly FleetTool[], toolSetId?: string): FleetTool[] =>
      offeredTools(entries, choicesReader(), toolSetId ? sets.get(toolSetId)?.members : undefined),
    handlers: createToolOfferHandlers({
      offers,
      sets,
      changedNow,
      setConversationToolSet: options.setConversationToolSet,
      onSetDeleted: options.onSetDeleted,
      serverName: options.serverName,
    }),
    // Servers stopping after this change nothing the renderer will see; the database closes soon after.
    dispose: () => {
      closed = true;
      if (pending) clearImmediate(pending);
      pending = undefined;
    },
  };
}

export type ToolOffersArea = ReturnType<typeof createToolOffersArea>;
