import type Database from 'better-sqlite3';
import {
  entryMatches,
  type LogEntry,
  type LogEntryDetail,
  type LogFilter,
  type LogPage,
  type LogSettings,
  type LogStream,
} from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { indentJson } from './bounded-json';
import { LiveBatcher, type LiveBatcherOptions } from './live-batcher';
import { LogPreferences } from './log-preferences';
import { buildRecord, DeferredRecord, DETAIL_MAX_CHARS, streamKey, type AppendInput, type EntrySource, type LogRecord } from './log-record';

export type { AppendInput };
import { LogRepository } from './log-repository';
import { LogRing, type RingLimits } from './log-ring';
import { LogWriter, type LogWriterOptions } from './log-writer';
import { PATTERNS_ONLY, Redactor } from './redactor';

/** Deferred entries estimated above this many bytes are made at once (see `appendLater`). */
const MAKE_AT_ONCE_ABOVE = 128 * 1024;

/** Default in-memory caps per server and stream. */
export const RING_DEFAULTS: Record<LogStream, RingLimits> = {
  output: { entries: 5000, bytes: 2 * 1024 * 1024 },
  messages: { entries: 2000, bytes: 2 * 1024 * 1024 },
  protocol: { entries: 2000, bytes: 8 * 1024 * 1024 },
  host: { entries: 1000, bytes: 512 * 1024 },
};
/**
 * Saved entries a ring keeps per server and stream. None: once written, an entry is read from SQLite
 * (the list's pages, its detail, diagnostics); memory holds what only memory has. With 50 servers the
 * start alone leaves ≈ 40 entries each (its protocol exchange, what the host did), ≈ 20 KB per server.
 */
const SAVED_KEPT_IN_MEMORY = 0;

export interface LogServiceOptions {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  rings?: Partial<Record<LogStream, RingLimits>>;
  detailMaxChars?: number;
  live?: Omit<LiveBatcherOptions, 'emit'>;
  writer?: Pick<LogWriterOptions, 'flushMs' | 'maxPerStreamPerFlush'>;
  /** How often every retention limit is applied (default 60 s; also at start). */
  retentionIntervalMs?: number;
}

/**
 * Every log entry of every server goes through here: redacted, numbered, kept in a bounded ring per
 * server and stream, pushed to the renderer in batches and persisted in batches with retention. Reads
 * see the ring first and the database for anything older.
 */
export class LogService {
  readonly repo: LogRepository;
  readonly preferences: LogPreferences;
  private readonly rings = new Map<string, LogRing>();
  private readonly redactors = new Map<string, Redactor>();
  private readonly writer: LogWriter;
  private readonly live: LiveBatcher;
  private readonly sinceTrim = new Map<string, number>();
  private readonly retentionTimer: NodeJS.Timeout;
  private settingsValue: LogSettings;
  private nextSeq: number;
  private disposed = false;

  constructor(private readonly options: LogServiceOptions) {
    this.repo = new LogRepository(options.db);
    this.preferences = new LogPreferences(options.db);
    this.settingsValue = this.preferences.readSettings();
    this.live = new LiveBatcher({ ...options.live, emit: (batch) => options.events.emit('logAppended', batch) });
    this.writer = new LogWriter(this.repo, {
      ...options.writer,
      // Said in the stream itself (live, in memory and on disk), so the gap in the saved history is explained.
      onDropped: (serverId, stream, dropped) =>
        this.append(serverId, stream, {
          level: 'warning',
          text: `… ${dropped.toLocaleString('en-US')} entries were not saved to disk: a stream saves at most ${this.writer.savedPerSecond.toLocaleString('en-US')} a second (the newest stay in memory)`,
          fields: { event: 'dropped' },
        }),
      onWritten: (counts) => {
        this.trimBusyStreams(counts);
        // A stream with nothing left in memory gives its ring back: 4 streams × 50 servers.
        for (const key of counts.keys()) {
          const ring = this.rings.get(key);
          ring?.releaseSaved(SAVED_KEPT_IN_MEMORY);
          if (ring?.size === 0) this.rings.delete(key);
        }
      },
    });
    this.repo.deleteOrphans();
    this.preferences.deleteOrphans();
    this.applyRetention();
    // Seeded from the clock (µs-scale, still < 2^53): entries of the last run that were never saved
    // (a flood, a crash) may still be on an open renderer's screen, and new ones must sort after them.
    this.nextSeq = Math.max(this.repo.maxSeq() + 1, options.clock.now().getTime() * 1000);
    this.retentionTimer = setInterval(() => this.applyRetention(), options.retentionIntervalMs ?? 60_000).unref();
  }

  get settings(): LogSettings {
    return this.settingsValue;
  }

  /** Uses these secret values (besides the API key patterns) to redact everything of this server from now on. */
  setSecrets(serverId: string, secretValues: readonly string[]): void {
    this.redactors.set(serverId, Redactor.forSecrets(secretValues));
  }

  redactorFor(serverId: string): Redactor {
    return this.redactors.get(serverId) ?? PATTERNS_ONLY;
  }

  /** Adds an entry: redacted, numbered, into the ring, the next live batch and the next write. */
  append(serverId: string, stream: LogStream, input: AppendInput): LogEntry | undefined {
    if (this.disposed) return undefined;
    const record = this.makeRecord(serverId, stream, input, this.options.clock.now().getTime(), this.redactorFor(serverId));
    this.insert(serverId, stream, record);
    return record.entry;
  }

  /**
   * Like `append`, for entries that come often on a hot path (every protocol message, every stderr
   * line): numbered and placed now, made (serialized, redacted) from `source` only when something
   * reads it — see `DeferredRecord`. The redactor is the server's of this moment. `size`: the entry's
   * approximate memory until made, counting what `source` holds (see `recordSize`). `ts`: when it
   * happened (epoch ms; default now).
   */
  appendLater(serverId: string, stream: LogStream, size: number, source: EntrySource, ts = this.options.clock.now().getTime()): void {
    if (this.disposed) return;
    const at = { seq: this.nextSeq++, ts, serverId, stream };
    const record = new DeferredRecord(at, source, this.redactorFor(serverId), this.detailMaxChars, size);
    // A big message is made at once: its raw form is not held, and the ring counts what is kept (≤ 64 KB).
    this.insert(serverId, stream, size > MAKE_AT_ONCE_ABOVE ? record.materialized() : record);
  }

  private insert(serverId: string, stream: LogStream, record: LogRecord): void {
    const key = streamKey(serverId, stream);
    let ring = this.rings.get(key);
    if (!ring) this.rings.set(key, (ring = new LogRing({ ...RING_DEFAULTS[stream], ...this.options.rings?.[stream] })));
    ring.push(record);
    this.live.add(key, serverId, stream, record);
    this.writer.add(key, serverId, stream, record);
  }

  /**
   * Newest matching entries before `beforeSeq`. One server without a text filter: its ring first,
   * then the database for anything older. Otherwise (every server's stream, or a text filter that also
   * searches full messages, which the ring may have released to disk) the rings and the database are
   * both asked for their newest matches and merged by seq: the ring adds what was never saved, the
   * database what memory no longer holds.
   */
  query(
    filter: LogFilter,
    beforeSeq = Number.POSITIVE_INFINITY,
    limit = 500,
    withDetail = false,
  ): { records: LogRecord[]; hasMore: boolean } {
    const needle = filter.text?.toLowerCase();
    const rings = filter.serverId !== undefined ? [this.rings.get(streamKey(filter.serverId, filter.stream))] : this.ringsOf(filter.stream);
    const found: LogRecord[] = [];
    let dbBefore = beforeSeq;
    for (const ring of rings) {
      if (!ring || ring.size === 0) continue;
      dbBefore = Math.min(dbBefore, ring.oldestSeq ?? dbBefore);
      let taken = 0;
      for (const record of ring.newestFirst()) {
        if (record.entry.seq >= beforeSeq || !recordMatches(record, filter, needle)) continue;
        found.push(record);
        if (++taken > limit) break;
      }
    }
    const merge = filter.serverId === undefined || needle !== undefined;
    if (merge || found.length <= limit) {
      // What the ring no longer holds may still be waiting for its write.
      this.writer.flush();
      const seen = new Set(found.map((r) => r.entry.seq));
      const stored = this.repo.query(filter, merge ? beforeSeq : dbBefore, limit + 1 - (merge ? 0 : found.length), withDetail);
      for (const record of stored) if (!seen.has(record.entry.seq)) found.push(record);
      if (merge) found.sort((a, b) => b.entry.seq - a.entry.seq);
    }
    const records = found.slice(0, limit);
    if (withDetail) for (let i = 0; i < records.length; i++) records[i] = this.withDetail(records[i]);
    return { records, hasMore: found.length > limit };
  }

  /** A page for the renderer, oldest first. */
  page(filter: LogFilter, beforeSeq: number | undefined, limit: number): LogPage {
    const { records, hasMore } = this.query(filter, beforeSeq, limit);
    return { entries: records.map((r) => r.entry).reverse(), hasMore };
  }

  /** One entry with its detail, from memory or disk. */
  entry(seq: number): LogEntryDetail | undefined {
    let record: LogRecord | undefined;
    for (const ring of this.rings.values()) {
      if ((ring.oldestSeq ?? Infinity) <= seq && (record = ring.find(seq))) break;
    }
    if (!record) {
      this.writer.flush();
      record = this.repo.get(seq);
    } else {
      record = this.withDetail(record);
    }
    // Protocol messages are kept as they crossed the wire (compact): shown indented.
    return record && { ...record.entry, detail: record.detail ? indentJson(record.detail) : '', truncated: record.truncated ?? false };
  }

  /** The last `n` entries of a server's stream, oldest first (from memory, then the database). */
  tail(serverId: string, stream: LogStream, n: number): LogEntry[] {
    return this.page({ serverId, stream }, undefined, n).entries;
  }

  /** Forgets a server's entries (one stream, or all) everywhere. */
  clear(serverId: string, stream?: LogStream): void {
    for (const [key, ring] of this.rings) {
      if (key.startsWith(`${serverId}\u0000`) && (!stream || key === streamKey(serverId, stream))) ring.clear();
    }
    this.writer.discard(serverId, stream);
    this.live.discard(serverId, stream);
    this.repo.delete(serverId, stream);
  }

  /** The server was removed: its entries, level, rings and secrets go. */
  forgetServer(serverId: string): void {
    this.clear(serverId);
    for (const key of [...this.rings.keys()]) if (key.startsWith(`${serverId}\u0000`)) this.rings.delete(key);
    this.redactors.delete(serverId);
    this.preferences.forgetServer(serverId);
  }

  updateSettings(patch: Partial<LogSettings>): LogSettings {
    this.settingsValue = this.preferences.writeSettings(patch);
    this.applyRetention();
    return this.settingsValue;
  }

  /** Memory in use by the rings (all, or one server's) and the pending write queue (for tests and the bench). */
  memoryStats(serverId?: string): { ringEntries: number; ringBytes: number; pendingWrites: number } {
    let ringEntries = 0;
    let ringBytes = 0;
    for (const [key, ring] of this.rings) {
      if (serverId !== undefined && !key.startsWith(`${serverId}\u0000`)) continue;
      ringEntries += ring.size;
      ringBytes += ring.byteSize;
    }
    return { ringEntries, ringBytes, pendingWrites: this.writer.pending };
  }

  /** Writes what is pending now. */
  flush(): void {
    this.writer.flush();
  }

  /** Last live batch out, last write done, timers stopped. Later appends are ignored. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.retentionTimer);
    this.live.flush();
    this.live.dispose();
    this.writer.dispose();
  }

  /** The rings of one stream, every server's. */
  private ringsOf(stream: LogStream): LogRing[] {
    const found: LogRing[] = [];
    for (const [key, ring] of this.rings) if (key.endsWith(`\u0000${stream}`)) found.push(ring);
    return found;
  }

  /** A ring record whose detail was released, with its detail read back from SQLite. */
  private withDetail(record: LogRecord): LogRecord {
    if (!record.detailOnDisk) return record;
    return this.repo.get(record.entry.seq) ?? record;
  }

  private makeRecord(serverId: string, stream: LogStream, input: AppendInput, ts: number, redactor: Redactor): LogRecord {
    return buildRecord({ seq: this.nextSeq++, ts, serverId, stream }, input, redactor, this.detailMaxChars);
  }

  private get detailMaxChars(): number {
    return this.options.detailMaxChars ?? DETAIL_MAX_CHARS;
  }

  /** After a write: a stream that got many rows is trimmed to its limit now, not at the next timer. */
  private trimBusyStreams(counts: Map<string, { serverId: string; stream: LogStream; count: number }>): void {
    const max = this.settingsValue.maxEntriesPerStream;
    for (const [key, { serverId, stream, count }] of counts) {
      const total = (this.sinceTrim.get(key) ?? 0) + count;
      if (total < Math.max(500, max / 10)) {
        this.sinceTrim.set(key, total);
        continue;
      }
      this.sinceTrim.delete(key);
      this.repo.trimStream(serverId, stream, max);
    }
  }

  private applyRetention(): void {
    try {
      this.repo.trim(this.settingsValue, this.options.clock.now().getTime());
    } catch (error) {
      console.error('[patchbay] could not apply log retention:', error);
    }
  }
}

/**
 * Whether a record in memory passes the filter: the entry itself (see `entryMatches`), or the text
 * found in its full message or data while memory still holds it (the database search covers the rest).
 */
function recordMatches(record: LogRecord, filter: LogFilter, needle: string | undefined): boolean {
  if (entryMatches(record.entry, filter)) return true;
  if (needle === undefined || record.detail === undefined) return false;
  return entryMatches(record.entry, { ...filter, text: undefined }) && record.detail.toLowerCase().includes(needle);
}
