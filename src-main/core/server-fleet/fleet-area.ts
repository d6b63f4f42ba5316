/**
 * The servers area for the composition root: the fleet that runs every configured server, the
 * contract's server handlers, the `servers` part of the snapshot, and the reaping of a killed run's
 * leftovers before the first start.
 */
import { reapRecordedLeftovers } from '../servers/process/process-reaper';
import { createServerHandlers, type ServerHandlerDeps } from './server-handlers';
import { SqliteLiveProcessStore } from './live-process-store';
import type { ServerFleetOptions } from './fleet-options';
import { ServerFleet } from './server-fleet';
import type Database from 'better-sqlite3';
import type { ImportResult } from '@contract';

export type FleetAreaDeps = Omit<ServerFleetOptions, 'processStore'> &
  Omit<ServerHandlerDeps, 'fleet' | 'onImported'> & {
    db: Database.Database;
  };

export function createFleetArea(deps: FleetAreaDeps) {
  const processStore = new SqliteLiveProcessStore(deps.db);
  const fleet = new ServerFleet({ ...deps, processStore });
  // The sign-in source was made before the fleet (the fleet needs it to connect remote servers); it
  // publishes and restarts servers through the fleet, which it gets here, as the fleet is made.
  deps.remoteAuth?.attach(fleet);
  const importListeners: ((text: string, result: ImportResult) => void)[] = [];
  return {
    name: 'servers',
    fleet,
    handlers: createServerHandlers({
      ...deps,
      fleet,
      onImported: (text, result) => importListeners.forEach((listener) => listener(text, result)),
    }),
    /**
     * Calls `listener` after each import, before its result is answered (the tool offers import the
     * file's tool sets and add their notes). The areas made later listen here: they are made from the
     * fleet, so it cannot be made from them.
     */
    whenImported: (listener: (text: string, result: ImportResult) => void) => void importListeners.push(listener),
    snapshot: () => ({ servers: fleet.list() }),
    /** Reaps server processes a killed Patchbay left behind (before the first start). */
    reapLeftovers: () => reapRecordedLeftovers(processStore),
    dispose: () => fleet.dispose(),
  };
}
