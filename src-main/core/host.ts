import process from 'node:process';
import type { HostHandlers, HostInfo, HostSnapshot } from '../../src-preload/contract';
import { HostEventBus } from './events';
import { systemClock, type HostPorts } from './ports';
import { SettingsRepository } from './settings/settings-repository';
import { openDatabase } from './store/database';

/** A running host core: the handlers every bridge dispatches to, its events, and one way to stop. */
export interface Host {
  readonly handlers: HostHandlers;
  readonly events: HostEventBus;
  readonly info: HostInfo;
  /** Ordered shutdown: stop emitting, then close the database. Safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Composition root of the core: opens the database, builds the repositories and services, and wires
 * them to the contract's handlers. Throws (before anything else starts) when the database cannot be
 * opened, e.g. because a newer Patchbay wrote it.
 */
export function createHost(ports: HostPorts): Host {
  const clock = ports.clock ?? systemClock;
  const { db, status } = openDatabase(ports.dataDir, { nativeBinding: ports.sqliteNativeBinding, now: clock.now });
  const events = new HostEventBus();
  const settings = new SettingsRepository(db);

  const info: HostInfo = {
    appName: 'Patchbay',
    version: ports.appVersion,
    mode: ports.mode,
    dataDir: ports.dataDir,
    platform: `${process.platform}-${process.arch}`,
    runtime: process.versions.electron ? `Electron ${process.versions.electron}` : `Node ${process.versions.node}`,
    database: status,
    startedAt: clock.now().toISOString(),
  };

  const handlers: HostHandlers = {
    getSnapshot: async (): Promise<HostSnapshot> => ({ info, settings: settings.read() }),
    updateSettings: async (patch) => {
      // Resolves only after the transaction committed, so "Saved" in the UI means saved.
      const committed = settings.write(patch, clock.now());
      events.emit('settingsChanged', committed);
      return committed;
    },
  };

  let disposed = false;
  return {
    handlers,
    events,
    info,
    async dispose() {
      if (disposed) return;
      disposed = true;
      events.clear();
      db.close();
    },
  };
}
