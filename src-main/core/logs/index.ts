/**
 * The logs area: Output (stderr), Messages (`notifications/message`), Protocol (JSON-RPC) and Host
 * streams per server, bounded in memory, batched to the renderer and to SQLite, redacted throughout.
 *
 * Entry points: `createLogArea` (the service and the connection plugin, for the composition root),
 * `createLogHandlers` (the contract's methods), `LogPlugin.recordHostEvent` (for other areas to put
 * what the user decided about a server, e.g. consent, into its Host stream).
 */
import type Database from 'better-sqlite3';
import type { LogOverview } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { LogPlugin } from './log-plugin';
import { LogService, type LogServiceOptions } from './log-service';

export { createLogHandlers, createLogViewsArea } from './log-handlers';
export type { LogPlugin } from './log-plugin';
export type { LogService } from './log-service';

export interface LogAreaDeps {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  /** The login-shell PATH the servers are spawned with (their spawn entries name the file found with it). */
  loginShellPath?: () => Promise<string[]>;
  /** Test knobs: ring caps, flush intervals, detail cap. */
  tuning?: Omit<LogServiceOptions, 'db' | 'events' | 'clock'>;
}

/** The logs service, the plugin that feeds it from every server connection, and the snapshot part. */
export function createLogArea(deps: LogAreaDeps): {
  name: 'logs';
  service: LogService;
  plugin: LogPlugin;
  snapshot(): { logs: LogOverview };
  dispose(): void;
} {
  const service = new LogService({ db: deps.db, events: deps.events, clock: deps.clock, ...deps.tuning });
  const plugin = new LogPlugin({ logs: service, clock: deps.clock, loginShellPath: deps.loginShellPath });
  return {
    name: 'logs',
    service,
    plugin,
    snapshot: () => ({ logs: { settings: service.settings, levels: plugin.levels.all() } }),
    dispose: () => service.dispose(),
  };
}
