import type { LogEntry, LogLevel, LogSettings, LogStream } from '@contract';
import type { StoreSlice } from './slice';

/** Newest live entries kept per server and stream; older ones are a query away. */
export const LIVE_CAP = 2000;

/** Key of one server's stream in the live maps. */
export function liveKey(serverId: string, stream: LogStream): string {
  return `${serverId}\u0000${stream}`;
}

/** Log entries pushed by the host since this window connected, bounded per stream, and the log choices. */
export interface LogsState {
  /** The newest entries per server and stream (`liveKey`), oldest first. */
  logLive: Record<string, LogEntry[]>;
  /** Entries the host did not push live (a flood) per stream: queries still find them. */
  logSkipped: Record<string, number>;
  /** Bumped by `logsCleared`, so open views reload. */
  logClearCount: number;
  logLevels: Record<string, LogLevel>;
  logSettings: LogSettings | null;
}

/**
 * Appends a batch to the live buffers: one copy per stream touched and per batch (a few batches per
 * second at most), each buffer cut back to LIVE_CAP.
 */
function appendBatch(
  state: LogsState,
  entries: readonly LogEntry[],
  skipped: { serverId: string; stream: LogStream; count: number }[],
): Partial<LogsState> {
  const grouped = new Map<string, LogEntry[]>();
  for (const entry of entries) {
    const key = liveKey(entry.serverId, entry.stream);
    const list = grouped.get(key);
    if (list) list.push(entry);
    else grouped.set(key, [entry]);
  }
  const logLive = { ...state.logLive };
  for (const [key, added] of grouped) {
    added.sort((a, b) => a.seq - b.seq);
    const merged = (logLive[key] ?? []).concat(added);
    logLive[key] = merged.length > LIVE_CAP ? merged.slice(merged.length - LIVE_CAP) : merged;
  }
  const change: Partial<LogsState> = { logLive };
  if (skipped.length > 0) {
    const logSkipped = { ...state.logSkipped };
    for (const s of skipped) logSkipped[liveKey(s.serverId, s.stream)] = (logSkipped[liveKey(s.serverId, s.stream)] ?? 0) + s.count;
    change.logSkipped = logSkipped;
  }
  return change;
}

export const logsSlice: StoreSlice<LogsState> = {
  initial: { logLive: {}, logSkipped: {}, logClearCount: 0, logLevels: {}, logSettings: null },
  fromSnapshot: (snapshot) => (snapshot.logs ? { logLevels: snapshot.logs.levels, logSettings: snapshot.logs.settings } : {}),
  apply: (state, event) => {
    switch (event.name) {
      case 'logAppended':
        return appendBatch(state, event.payload.entries, event.payload.skipped);
      case 'logsCleared': {
        const { serverId, stream } = event.payload;
        const logLive = Object.fromEntries(
          Object.entries(state.logLive).filter(
            ([key]) => !(key.startsWith(`${serverId}\u0000`) && (!stream || key === liveKey(serverId, stream))),
          ),
        );
        return { logLive, logClearCount: state.logClearCount + 1 };
      }
      case 'logLevelChanged':
        return { logLevels: { ...state.logLevels, [event.payload.serverId]: event.payload.level } };
      case 'logSettingsChanged':
        return { logSettings: event.payload };
      case 'serverRemoved': {
        const prefix = `${event.payload.id}\u0000`;
        const logLive = Object.fromEntries(Object.entries(state.logLive).filter(([key]) => !key.startsWith(prefix)));
        return { logLive };
      }
      default:
        return undefined;
    }
  },
};
