/**
 * Builds the tool-offers area for the composition root: the user's per-tool choices (offered, pinned,
 * what new tools start as) and tool sets, the filter the chat's toolbox applies, the snapshot part,
 * the handlers, and the connection plugin that records tools at first sight.
 */
import type Database from 'better-sqlite3';
import type { Tool } from '@modelcontextprotocol/client';
import type { ContentFlag, ImportResult, ToolOffersSnapshot } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import { listFleetTools, type FleetTool } from '../server-fleet/fleet-tools';
import type { ServerFleet } from '../server-fleet/server-fleet';
import type { SettingsRepository } from '../settings/settings-repository';
import { visibleTo } from '../tool-definition/tool-ui';
import { LastSent } from './last-sent';
import { offeredTools } from './offered-tools';
import { createToolOfferHandlers } from './tool-offer-handlers';
import { ToolOfferRepository, type ToolChoice } from './tool-offer-repository';
import { ToolSetRepository } from './tool-set-repository';
import { exportToolSets, importedToolSets } from './tool-set-transfer';
import { ToolSets } from './tool-sets';

export interface ToolOffersAreaOptions {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  fleet: Pick<ServerFleet, 'list' | 'refs' | 'connection' | 'readyNow'>;
  /** The fleet's imports: a Patchbay export's tool sets are imported with its servers. */
  whenImported?(listener: (text: string, result: ImportResult) => void): void;
  /** A configured server's name; undefined once it is removed. */
  serverName(id: string): string | undefined;
  /** The default set for new conversations is a setting (cleared when its set is deleted). */
  settings: Pick<SettingsRepository, 'read' | 'write'>;
  /**
   * What the content scanner flags in a tool's title and description (scanned once per distinct text,
   * so when a server's tools are listed and when they change). Shown on the tool; under Flagged content
   * = Block a flagged tool is not offered to the model.
   */
  descriptionFlags?(tool: Tool): ContentFlag[];
}

export function createToolOffersArea(options: ToolOffersAreaOptions) {
  const { events, fleet } = options;
  const offers = new ToolOfferRepository(options.db);
  const setRepo = new ToolSetRepository(options.db);
  const sets = new ToolSets(setRepo, fleet, options.serverName, options.clock);
  const offerNew = (serverId: string) => offers.offerNew()[serverId] ?? true;
  const flagsOf = (tool: Tool) => options.descriptionFlags?.(tool) ?? [];

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
    const tools = listFleetTools(fleet).map(({ serverId, serverName, tool }) => {
      const flags = flagsOf(tool);
      return {
        serverId,
        serverName,
        tool: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        // Its first line, for the tool lists' search and a hint beside the name (not the whole text: 2,000 tools).
        ...(tool.description ? { description: firstLine(tool.description) } : {}),
        ...choiceOf(serverId, tool.name),
        ...(flags.length > 0 ? { flags } : {}),
      };
    });
    return { tools, offerNew: offers.offerNew(), sets: sets.list() };
  };

  // Catalogs and states change in bursts (a server starting, fifty at launch): one event per burst, and
  // none when nothing the renderer shows changed.
  let pending: NodeJS.Immediate | undefined;
  const lastSent = new LastSent();
  let closed = false;
  const changed = () => {
    if (closed) return;
    pending ??= setImmediate(() => {
      pending = undefined;
      const next = snapshot();
      if (lastSent.changed(JSON.stringify(next))) events.emit('toolOffersChanged', next);
    });
  };
  /** After the user's own change: the answer and the event carry the same snapshot. */
  const changedNow = (): ToolOffersSnapshot => {
    const next = snapshot();
    lastSent.changed(JSON.stringify(next)); // remembered; sent in any case
    events.emit('toolOffersChanged', next);
    return next;
  };

  // The snapshot holds the tools of Ready servers only: of a server's states only entering or leaving
  // Ready can change it, and of its catalog only a new tools list (lists are replaced, never changed in
  // place; resources and prompts are not in it). A start passes through several states (launching,
  // negotiating, listing…) and catalog updates: a snapshot of every server's tools for each of them
  // was ≈ 300 snapshots, 200 MB of garbage, while fifty servers started.
  const readyServers = new Set<string>();
  const toolsSeen = new Map<string, Tool[]>();
  const plugin: ConnectionPlugin = {
    // At ready and after each list_changed: tools never seen before start as the server's default says.
    onCatalogChange: (server, catalog) => {
      if (toolsSeen.get(server.id) === catalog.tools) return;
      toolsSeen.set(server.id, catalog.tools);
      offers.recordFirstSight(
        server.id,
        catalog.tools.map((tool) => tool.name),
        offerNew(server.id),
      );
      changed();
    },
    onStateChange: (server, state) => {
      const ready = state.status === 'ready';
      if (ready === readyServers.has(server.id)) return;
      if (ready) readyServers.add(server.id);
      else readyServers.delete(server.id);
      changed();
    },
    onRemoved: (server) => {
      readyServers.delete(server.id);
      toolsSeen.delete(server.id);
      offers.forgetServer(server.id);
      changed();
    },
  };

  /** After an import: the file's tool sets, matched to servers by name (those just imported first). */
  const importSets = (text: string, result: ImportResult) => {
    const byName = new Map(fleet.list().map((view) => [view.config.name, view.config.id]));
    for (const view of result.imported) byName.set(view.config.name, view.config.id);
    const existing = new Set(setRepo.list().map((set) => set.name.toLowerCase()));
    let added = false;
    for (const set of importedToolSets(text, (name) => byName.get(name))) {
      if (existing.has(set.name.toLowerCase())) {
        result.notes.push({ name: set.name, note: `Tool set not imported: a tool set named "${set.name}" exists already` });
        continue;
      }
      sets.save({ name: set.name, members: set.members });
      added = true;
      if (set.leftOut.length > 0) {
        result.notes.push({ name: set.name, note: `Tool set imported without ${set.leftOut.join(', ')}: no server of that name here` });
      }
    }
    if (added) changed();
  };
  options.whenImported?.(importSets);
  const deletedListeners: ((id: string) => void)[] = [];

  return {
    name: 'tool-offers',
    plugin,
    snapshot: () => ({ toolOffers: snapshot() }),
    /** A Patchbay export's `toolSets`. */
    exportSets: () => exportToolSets(setRepo.list()),
    /** Whether a tool set with this id exists (a conversation can only be given one that does). */
    hasSet: (id: string) => sets.get(id) !== undefined,
    /**
     * Calls `listener` with the id of each set the user deletes, before the default set is cleared.
     * The conversations that used it (the chat's, made later from this area) listen here.
     */
    whenSetDeleted: (listener: (id: string) => void) => void deletedListeners.push(listener),
    /**
     * What `ChatToolbox.list` returns: of Ready servers (only `serverIds` when given), the tools offered
     * to the model, within the conversation's set; never those a server keeps for its app, nor (under
     * Flagged content = Block) those whose description the scanner flagged.
     */
    forModel: (serverIds?: readonly string[], toolSetId?: string): FleetTool[] => {
      const blockFlagged = options.settings.read().flaggedContent === 'block';
      return offeredTools(
        listFleetTools(fleet, serverIds).filter(
          (entry) => visibleTo(entry.tool, 'model') && !(blockFlagged && flagsOf(entry.tool).length > 0),
        ),
        choicesReader(),
        toolSetId ? sets.get(toolSetId)?.members : undefined,
      );
    },
    handlers: createToolOfferHandlers({
      offers,
      sets,
      changedNow,
      onSetDeleted: (id) => {
        for (const listener of deletedListeners) listener(id);
        const { settings, clock } = options;
        if (settings.read().defaultToolSetId === id) events.emit('settingsChanged', settings.write({ defaultToolSetId: '' }, clock.now()));
      },
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

/** A description's first line, at most 160 characters. */
function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
