import { type HandlersFor, HostCallError, type HostInfo, type LogFilter, type logMethods } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { ServerFleet } from '../server-fleet/server-fleet';
import type { AppLog } from './app-log';
import { buildDiagnostics } from './diagnostics';
import type { LogPlugin } from './log-plugin';
import type { LogService } from './log-service';

export interface LogHandlerDeps {
  logs: LogService;
  plugin: LogPlugin;
  fleet: ServerFleet;
  events: HostEventBus;
  clock: Clock;
  info: HostInfo;
  /** The app's own log file: its path and last lines go into every diagnostics report. */
  appLog?: AppLog;
}

/** Largest JSONL export in characters: one host reply, so it has to stay well-sized. */
export const MAX_EXPORT_CHARS = 16 * 1024 * 1024;
/** Stderr lines in diagnostics. */
const DIAGNOSTIC_LINES = 40;
/** App log lines in diagnostics. */
const APP_LOG_LINES = 30;

/** The contract's log methods. */
export function createLogHandlers(deps: LogHandlerDeps): HandlersFor<typeof logMethods> {
  const { logs, plugin, fleet, events } = deps;

  return {
    queryLogs: async ({ beforeSeq, limit, ...filter }) => logs.page(filter, beforeSeq, limit),

    getLogEntry: async ({ seq }) => {
      const entry = logs.entry(seq);
      if (!entry) throw new HostCallError('invalid_input', `No log entry ${seq} (it may have been trimmed)`);
      return entry;
    },

    exportLogs: async ({ maxEntries, ...filter }) => exportJsonl(logs, filter, maxEntries),

    clearLogs: async ({ serverId, stream }) => {
      logs.clear(serverId, stream);
      events.emit('logsCleared', { serverId, ...(stream ? { stream } : {}) });
    },

    setServerLogLevel: async ({ id, level }) => {
      fleet.viewById(id); // rejects an unknown id
      const delivery = await plugin.setLevel(id, level);
      events.emit('logLevelChanged', { serverId: id, level });
      return { level, delivery };
    },

    updateLogSettings: async (patch) => {
      const settings = logs.updateSettings(patch);
      events.emit('logSettingsChanged', settings);
      return settings;
    },

    getServerDiagnostics: async ({ id }) => {
      const server = fleet.viewById(id);
      const facts = await plugin.launchFacts(id);
      return buildDiagnostics({
        host: deps.info,
        server,
        ...facts,
        // From memory or the database: after a restart, or once saved, the stored lines still tell.
        lastStderr: logs.tail(id, 'output', DIAGNOSTIC_LINES).map((e) => e.text),
        recentHost: logs.tail(id, 'host', 10),
        ...(deps.appLog ? { appLog: { path: deps.appLog.path, tail: deps.appLog.tail(APP_LOG_LINES) } } : {}),
        redactor: logs.redactorFor(id),
        now: deps.clock.now(),
      });
    },
  };
}

/** The filtered stream as JSON Lines, oldest first: the newest `maxEntries` (and at most MAX_EXPORT_CHARS). */
function exportJsonl(logs: LogService, filter: LogFilter, maxEntries: number): { jsonl: string; count: number; truncated: boolean } {
  const lines: string[] = [];
  let chars = 0;
  let before: number | undefined;
  let truncated = false;
  for (;;) {
    const { records, hasMore } = logs.query(filter, before, Math.min(1000, maxEntries - lines.length), true);
    for (const { entry, detail, truncated: cut } of records) {
      const line = JSON.stringify({ ...entry, time: new Date(entry.ts).toISOString(), ...detailField(detail, cut) });
      if (chars + line.length + 1 > MAX_EXPORT_CHARS) {
        truncated = true;
        break;
      }
      lines.push(line);
      chars += line.length + 1;
    }
    if (truncated || !hasMore || records.length === 0) break;
    if (lines.length >= maxEntries) {
      truncated = true;
      break;
    }
    before = records[records.length - 1].entry.seq;
  }
  lines.reverse();
  return { jsonl: lines.length > 0 ? `${lines.join('\n')}\n` : '', count: lines.length, truncated };
}

/** The full message as JSON when it was kept whole, else its kept text marked truncated. */
function detailField(detail: string | undefined, truncated: boolean | undefined): Record<string, unknown> {
  if (detail === undefined) return {};
  if (!truncated) {
    try {
      return { detail: JSON.parse(detail) as unknown };
    } catch {
      // Redaction can make a value unparsable (a redacted number): keep the text.
    }
  }
  return { detailText: detail, detailTruncated: Boolean(truncated) };
}

/** The log views area: the contract's methods over the logs (made after the fleet, which they read). */
export function createLogViewsArea(deps: LogHandlerDeps) {
  return { name: 'log views', handlers: createLogHandlers(deps) } as const;
}
