/**
 * A host core with just servers and logs wired the way host.ts wires them, for the logs suite: the
 * real SQLite, the real fleet and connection plugin, calls through `dispatchCall` (the validated path).
 * Also exposes the fleet (to call tools) and the log service (to look at its memory).
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { type HostApi, type HostEvent, type HostHandlers, type ServerView } from '@contract';
import { tempDir } from '../../../test-support/temp-dir';
import { HostEventBus } from '../../events';
import { systemClock } from '../../clock';
import { inProcessApi } from '../../rpc/dispatch';
import { KeyFileSecretBox } from '../../secrets/key-file-secret-box';
import { ServerConfigRepository } from '../../server-config/server-config-repository';
import { ServerFleet } from '../../server-fleet/server-fleet';
import { createServerHandlers } from '../../server-fleet/server-handlers';
import { InMemoryLiveProcessStore } from '../../servers/process/process-reaper';
import { waitFor } from '../../servers/wait';
import { openDatabase } from '../../store/database';
import { createLogArea, createLogHandlers, type LogAreaDeps, type LogPlugin, type LogService } from '../index';

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((dispose) => dispose()));
});

/** What a test gets: the API, the pieces behind it, and the events it emitted. */
export interface LogsTestHost {
  api: HostApi;
  fleet: ServerFleet;
  logs: LogService;
  plugin: LogPlugin;
  events: HostEvent[];
  dataDir: string;
  db: Database.Database;
  dispose(): Promise<void>;
  waitForStatus(id: string, status: ServerView['runtime']['status'], timeoutMs?: number): Promise<ServerView>;
}

/** Starts a servers+logs host on a temp data dir; torn down after the test. */
export function startLogsHost(tuning?: LogAreaDeps['tuning']): LogsTestHost {
  const dataDir = tempDir();
  const { db, status } = openDatabase(dataDir);
  const events = new HostEventBus();
  const received: HostEvent[] = [];
  events.subscribe((event) => received.push(event));
  const clock = systemClock;
  const repo = new ServerConfigRepository(db);
  const secrets = new KeyFileSecretBox(dataDir);
  const logs = createLogArea({ db, events, clock, tuning });
  const fleet = new ServerFleet({
    repo,
    secrets,
    processStore: new InMemoryLiveProcessStore(),
    events,
    clock,
    connectionDefaults: { shutdown: { stdinGraceMs: 300, termGraceMs: 300 }, restart: { baseDelayMs: 20, maxAttempts: 1 } },
    plugins: [logs.plugin],
  });
  const info = {
    appName: 'Patchbay',
    version: '0.0.0-test',
    mode: 'web' as const,
    dataDir,
    platform: `${process.platform}-${process.arch}`,
    runtime: `Node ${process.versions.node}`,
    database: status,
    startedAt: clock.now().toISOString(),
    logFile: path.join(dataDir, 'logs', 'patchbay.log'),
  };
  // Only the servers' and the logs' methods exist here; dispatchCall calls one at a time.
  const handlers = {
    ...createServerHandlers({ repo, fleet, secrets, events, clock, dataDir }),
    ...createLogHandlers({ logs: logs.service, plugin: logs.plugin, fleet, events, clock, info }),
  } as unknown as HostHandlers;
  const api = inProcessApi(handlers);
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await fleet.dispose();
    logs.dispose();
    events.clear();
    db.close();
  };
  running.push(dispose);

  /** Waits until the server's runtime status is `status` (it may pass through others on the way). */
  const waitForStatus = async (id: string, status: ServerView['runtime']['status'], timeoutMs = 30_000): Promise<ServerView> => {
    let last: ServerView | undefined;
    await waitFor(() => (last = fleet.viewById(id)).runtime.status === status, { timeoutMs, what: `server ${id} to be ${status}` }).catch(
      () => {
        throw new Error(`expected ${status}, got ${JSON.stringify(last?.runtime)}`);
      },
    );
    return last!;
  };
  return { api, fleet, logs: logs.service, plugin: logs.plugin, events: received, dataDir, db, dispose, waitForStatus };
}
