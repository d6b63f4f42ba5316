import path from 'node:path';
import type Database from 'better-sqlite3';
import type { DatabaseStatus } from '@contract';
import type { HostArea } from './area';
import { applyPendingRestore } from './backup/restore-backup';
import type { Clock } from './clock';
import { clearScratch } from './data-dir';
import { HostEventBus } from './events';
import { AppLog } from './logs/app-log';
import type { HostPorts } from './ports';
import { DATABASE_FILE, openDatabase } from './store/database';
import { WalCheckpointer } from './store/wal-checkpointer';
import { ServerConfigRepository } from './server-config/server-config-repository';

/**
 * What every area stands on, made before any of them: a backup staged for restoring swapped in,
 * the last run's scratch files gone, the database open, the event bus, the app's own log file
 * (following the events from the first moment on) and the WAL checkpointer. `areas` are their places
 * at the head of host.ts's list, so they close last: checkpoints, the log's last line, the bus, the
 * database. Throws when the database cannot be opened (e.g. a newer Patchbay wrote it).
 */
export interface Foundation {
  db: Database.Database;
  status: DatabaseStatus;
  events: HostEventBus;
  appLog: AppLog;
  /** The configured servers, stored: the app log names servers from it, as most areas do. */
  repo: ServerConfigRepository;
  areas: HostArea[];
}

export function openFoundation(ports: HostPorts, clock: Clock): Foundation {
  const restored = applyPendingRestore(ports.dataDir, clock.now());
  clearScratch(ports.dataDir);
  const { db, status } = openDatabase(ports.dataDir, { nativeBinding: ports.sqliteNativeBinding, now: clock.now });
  const events = new HostEventBus();
  const repo = new ServerConfigRepository(db);
  const appLog = new AppLog({ dataDir: ports.dataDir, clock, serverName: (id) => repo.get(id)?.name });
  const stopFollowing = appLog.follow(events);
  // Checkpoints of the WAL happen on a worker, never inside a commit on this thread (see wal-checkpointer.ts).
  const checkpointer = new WalCheckpointer(db, {
    file: path.join(ports.dataDir, DATABASE_FILE),
    nativeBinding: ports.sqliteNativeBinding,
    onFallback: (reason) => appLog.write('warning', 'app', `Database checkpoints run on the main thread again: ${reason}`),
  });
  if (restored) appLog.write('info', 'app', `Restored the backup ${restored.from}; the data it replaced is in ${restored.previousDataIn}`);
  const appLogArea = {
    name: 'app log',
    dispose() {
      appLog.write('info', 'app', 'Stopped: every server stopped, the database closes');
      stopFollowing();
      appLog.close();
    },
  };
  return {
    db,
    status,
    events,
    appLog,
    repo,
    areas: [
      { name: 'database', dispose: () => void db.close() },
      { name: 'events', dispose: () => events.clear() },
      appLogArea,
      { name: 'checkpoints', dispose: () => checkpointer.close() },
    ],
  };
}
