import { z } from 'zod';
import { ByIdSchema, IdString, method } from './method';

/** The log streams every server has: stderr, `notifications/message`, JSON-RPC traffic, and the host's own account. */
export const LOG_STREAMS = ['output', 'messages', 'protocol', 'host'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

/** RFC 5424 severities as MCP names them, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** 0 for debug … 7 for emergency: "at least this severe" is a plain comparison. */
export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/** One log entry as the list shows it. Every text in it has been redacted by the host. */
export interface LogEntry {
  /** Host-wide, strictly increasing: the order of entries and the key for paging. */
  seq: number;
  serverId: string;
  stream: LogStream;
  /** Epoch ms when the host saw it. */
  ts: number;
  level: LogLevel;
  /** One line: the stderr line, the message's data, a protocol summary, or what the host did. */
  text: string;
  /** messages: the logger the server named. */
  logger?: string;
  /** protocol: `out` from Patchbay to the server, `in` from the server. */
  direction?: 'in' | 'out';
  /** protocol: what kind of JSON-RPC message. */
  kind?: 'request' | 'response' | 'error' | 'notification';
  /** protocol: the method (a response carries its request's method when it was paired). */
  method?: string;
  /** protocol: the JSON-RPC id. */
  rpcId?: string | number;
  /** protocol: bytes on the wire. */
  bytes?: number;
  /** protocol responses: ms since the request with the same id went the other way. */
  latencyMs?: number;
  /** host: what happened (spawn, status, negotiated, crash, restart, warning, level, consent…). */
  event?: string;
  /** A full message (protocol) or data (messages) can be fetched with `getLogEntry`. */
  hasDetail?: boolean;
}

/**
 * Whether an entry passes a filter: at least `minLevel`, `text` found (case-insensitively) in its text,
 * method or logger, `method` found (case-insensitively) anywhere in its method. The host's queries and
 * the renderer's live view apply the same rule; the host also finds `text` in the entry's full message
 * or data (its detail), which the renderer does not have.
 */
export function entryMatches(entry: LogEntry, filter: Pick<LogFilter, 'minLevel' | 'text' | 'method'>): boolean {
  if (filter.minLevel && levelRank(entry.level) < levelRank(filter.minLevel)) return false;
  if (filter.method && !entry.method?.toLowerCase().includes(filter.method.toLowerCase())) return false;
  if (filter.text) {
    const needle = filter.text.toLowerCase();
    const found =
      entry.text.toLowerCase().includes(needle) ||
      Boolean(entry.method?.toLowerCase().includes(needle)) ||
      Boolean(entry.logger?.toLowerCase().includes(needle));
    if (!found) return false;
  }
  return true;
}

/** One entry with its full message or data. */
export interface LogEntryDetail extends LogEntry {
  /** Pretty-printed JSON (redacted), cut at the host's detail cap. */
  detail: string;
  /** The original was larger than the cap; `detail` is its beginning. */
  truncated: boolean;
}

/** A page of entries, oldest first. */
export interface LogPage {
  entries: LogEntry[];
  /** Older matching entries exist (ask again with `beforeSeq` = the first entry's seq). */
  hasMore: boolean;
}

/** How much log history the host keeps on disk. */
export const LogSettingsSchema = z.object({
  /** Newest entries kept per server and stream. */
  maxEntriesPerStream: z.number().int().min(100).max(1_000_000),
  /** All stored log entries together, in megabytes. */
  maxTotalMB: z.number().int().min(1).max(10_000),
  /** Entries older than this many days are deleted. */
  maxAgeDays: z.number().int().min(1).max(3650),
});
export type LogSettings = z.infer<typeof LogSettingsSchema>;

export const DEFAULT_LOG_SETTINGS: LogSettings = { maxEntriesPerStream: 20_000, maxTotalMB: 100, maxAgeDays: 14 };

/** How the server learns the level: a `logging/setLevel` request (2025 era), the per-request `_meta` level (2026 era), or at its next start. */
export type LogLevelDelivery = 'logging/setLevel' | 'per-request' | 'next-start';

/** What the Logs view needs besides entries (part of the host snapshot). */
export interface LogOverview {
  settings: LogSettings;
  /** The level the user chose per server id (absent: never chosen, the server's own default). */
  levels: Record<string, LogLevel>;
}

/** Host-built diagnostics of one server, redacted, ready to paste into a bug report. */
export interface ServerDiagnostics {
  text: string;
  /** The last stderr lines (redacted), oldest first. */
  lastStderr: string[];
}

/** What selects entries: one server's stream (or that stream of every server), optionally narrowed. */
export const LogFilterSchema = z.object({
  /** Omitted: every server's entries of the stream, merged in the order the host saw them. */
  serverId: IdString.optional(),
  stream: z.enum(LOG_STREAMS),
  /** At least this severe. */
  minLevel: z.enum(LOG_LEVELS).optional(),
  /** Case-insensitive substring of the whole entry: its text, logger, method, or full message / data. */
  text: z.string().max(500).optional(),
  /** Case-insensitive substring of the method (`tools/` matches tools/list and tools/call, `call` matches tools/call). */
  method: z.string().max(200).optional(),
});
export type LogFilter = z.infer<typeof LogFilterSchema>;

/** Largest page `queryLogs` returns. */
export const MAX_LOG_PAGE = 2000;

const QueryLogsSchema = LogFilterSchema.extend({
  /** Entries with a smaller seq only (keyset paging, newest first). */
  beforeSeq: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(MAX_LOG_PAGE).default(500),
});
const ExportLogsSchema = LogFilterSchema.extend({ maxEntries: z.number().int().min(1).max(100_000).default(50_000) });
const LogSeqSchema = z.object({ seq: z.number().int().positive() });
const ClearLogsSchema = z.object({ serverId: IdString, stream: z.enum(LOG_STREAMS).optional() });
const SetServerLogLevelSchema = z.object({ id: IdString, level: z.enum(LOG_LEVELS) });
const LogSettingsPatchSchema = LogSettingsSchema.partial().strict();

export const logMethods = {
  /** A page of one server's stream, newest matching entries first in time order (oldest first in the array). */
  queryLogs: method<typeof QueryLogsSchema, LogPage>(QueryLogsSchema),
  /** One entry with its full (capped, redacted) message or data. */
  getLogEntry: method<typeof LogSeqSchema, LogEntryDetail>(LogSeqSchema),
  /** The filtered stream as JSON Lines, oldest first; bounded by count and size (`truncated` says so). */
  exportLogs: method<typeof ExportLogsSchema, { jsonl: string; count: number; truncated: boolean }>(ExportLogsSchema),
  /** Forgets a server's entries (one stream, or all), in memory and on disk. */
  clearLogs: method<typeof ClearLogsSchema, void>(ClearLogsSchema),
  /** Asks the server to send log messages at this level or above. */
  setServerLogLevel: method<typeof SetServerLogLevelSchema, { level: LogLevel; delivery: LogLevelDelivery }>(SetServerLogLevelSchema),
  updateLogSettings: method<typeof LogSettingsPatchSchema, LogSettings>(LogSettingsPatchSchema),
  /** Resolved command, versions, exit status, last stderr lines and environment, with secrets redacted. */
  getServerDiagnostics: method<typeof ByIdSchema, ServerDiagnostics>(ByIdSchema),
};

export interface LogEvents {
  /**
   * New entries, batched (a few per second at most, whatever the servers do). Under a flood some
   * entries are not pushed live (`skipped`, per server and stream); queries still find them.
   */
  logAppended: { entries: LogEntry[]; skipped: { serverId: string; stream: LogStream; count: number }[] };
  logsCleared: { serverId: string; stream?: LogStream };
  logLevelChanged: { serverId: string; level: LogLevel };
  logSettingsChanged: LogSettings;
}
