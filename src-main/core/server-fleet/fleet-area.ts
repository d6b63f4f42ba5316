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

export type FleetAreaDeps = Omit<ServerFleetOptions, 'processStore'> &
  Omit<ServerHandlerDeps, 'fleet'> & {
    db: Database.Database;
  };

export function createFleetArea(deps: FleetAreaDeps) {
  const processStore = new SqliteLiveProcessStore(deps.db);
  const fleet = new ServerFleet({ ...deps, processStore });
  return {
    name: 'servers',
    fleet,
    handlers: createServerHandlers({ ...deps, fleet }),
    snapshot: () => ({ servers: fleet.list() }),
    /** Reaps server processes a killed Patchbay left behind (before the first start). */
    reapLeftovers: () => reapRecordedLeftovers(processStore),
    dispose: () => fleet.dispose(),
  };
}
