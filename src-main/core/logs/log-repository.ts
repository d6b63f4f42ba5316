import type Database from 'better-sqlite3';
import { LOG_LEVELS, levelRank, type LogEntry, type LogFilter, type LogSettings, type LogStream } from '@contract';
import { RelaxedWriter } from '../store/relaxed-write';
import { recordSize, type LogRecord } from './log-record';

interface Row {
  seq: number;
  server_id: string;
  stream: LogStream;
  ts: number;
  level: number;
  text: string;
  method: string | null;
  logger: string | null;
  meta: string | null;
  detail?: string | null;
  truncated?: number;
  bytes: number;
}

/** The stream-specific fields kept in the `meta` JSON column. */
type Meta = Pick<LogEntry, 'direction' | 'kind' | 'rpcId' | 'bytes' | 'latencyMs' | 'event' | 'hasDetail'>;

/** The `meta` column of an entry: its stream-specific fields as JSON, or NULL when it has none. */
function metaJson(entry: LogEntry): string | null {
  // Only the fields the entry has, in a fixed order.
  let json = '';
  const add = (key: string, value: unknown) => (json += `${json ? ',' : '{'}"${key}":${JSON.stringify(value)}`);
  if (entry.direction !== undefined) add('direction', entry.direction);
  if (entry.kind !== undefined) add('kind', entry.kind);
  if (entry.rpcId !== undefined) add('rpcId', entry.rpcId);
  if (entry.bytes !== undefined) add('bytes', entry.bytes);
  if (entry.latencyMs !== undefined) add('latencyMs', entry.latencyMs);
  if (entry.event !== undefined) add('event', entry.event);
  if (entry.hasDetail !== undefined) add('hasDetail', entry.hasDetail);
  return json ? `${json}}` : null;
}

const DAY_MS = 86_400_000;

/** `%`, `_` and `\` taken literally in a LIKE pattern (with ESCAPE '\'). */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Log entries in SQLite: batched inserts, keyset-paged queries by server, stream and filters, and
 * retention (entries per stream, total size, age). Every text in it was redacted before it got here.
 */
export class LogRepository {
  private readonly insert: Database.Statement;
  private readonly queries = new Map<string, Database.Statement>();
  /** One transaction (made once: better-sqlite3 builds a transaction function's variants on every call). */
  private readonly insertAll: (records: readonly LogRecord[]) => void;
  private readonly relaxed: RelaxedWriter;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      'INSERT INTO log_entries (seq, server_id, stream, ts, level, text, method, logger, meta, detail, truncated, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertAll = db.transaction((records: readonly LogRecord[]) => this.insertRows(records));
    this.relaxed = new RelaxedWriter(db);
  }

  /** The largest seq stored (0 when empty): new entries continue after it. */
  maxSeq(): number {
    return (this.db.prepare('SELECT MAX(seq) AS seq FROM log_entries').get() as { seq: number | null }).seq ?? 0;
  }

  /**
   * Writes all records in one transaction, relaxed (see store/relaxed-write.ts): a batch every half
   * second must not wait for the disk on the main thread. In WAL mode it survives Patchbay being killed;
   * a power cut can lose the last batches until the next checkpoint or durable commit.
   */
  insertBatch(records: readonly LogRecord[]): void {
    this.relaxed.run(() => this.insertAll(records));
  }

  private insertRows(records: readonly LogRecord[]): void {
    for (const record of records) {
      // Read once each: a deferred record is made by its first read (see `DeferredRecord`).
      const { entry, detail, truncated } = record;
      this.insert.run(
        entry.seq,
        entry.serverId,
        entry.stream,
        entry.ts,
        levelRank(entry.level),
        entry.text,
        entry.method ?? null,
        entry.logger ?? null,
        metaJson(entry),
        detail ?? null,
        truncated ? 1 : 0,
        // What is stored, not a deferred record's estimate of what it held before it was made.
        recordSize(entry, detail),
      );
    }
  }

  /** Matching entries with seq < `beforeSeq` (of one server, or all when `serverId` is omitted), newest first, at most `limit`. */
  query(filter: LogFilter, beforeSeq: number, limit: number, withDetail = false): LogRecord[] {
    const where = ['stream = ?', 'seq < ?'];
    const params: unknown[] = [filter.stream, Number.isFinite(beforeSeq) ? beforeSeq : Number.MAX_SAFE_INTEGER];
    if (filter.serverId !== undefined) {
      where.unshift('server_id = ?');
      params.unshift(filter.serverId);
    }
    if (filter.minLevel) {
      where.push('level >= ?');
      params.push(levelRank(filter.minLevel));
    }
    if (filter.text) {
      const pattern = `%${likeLiteral(filter.text)}%`;
      // The whole entry: its full message or data too, not only the one-line preview.
      where.push("(text LIKE ? ESCAPE '\\' OR method LIKE ? ESCAPE '\\' OR logger LIKE ? ESCAPE '\\' OR detail LIKE ? ESCAPE '\\')");
      params.push(pattern, pattern, pattern, pattern);
    }
    if (filter.method) {
      where.push("method LIKE ? ESCAPE '\\'");
      params.push(`%${likeLiteral(filter.method)}%`);
    }
    const columns = `seq, server_id, stream, ts, level, text, method, logger, meta, bytes${withDetail ? ', detail, truncated' : ''}`;
    const sql = `SELECT ${columns} FROM log_entries WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`;
    let statement = this.queries.get(sql);
    if (!statement) this.queries.set(sql, (statement = this.db.prepare(sql)));
    return (statement.all(...params, limit) as Row[]).map(toRecord);
  }

  /** One entry with its detail. */
  get(seq: number): LogRecord | undefined {
    const row = this.db.prepare('SELECT * FROM log_entries WHERE seq = ?').get(seq) as Row | undefined;
    return row && toRecord(row);
  }

  /** Deletes a server's entries (one stream or all). */
  delete(serverId: string, stream?: LogStream): void {
    if (stream) this.db.prepare('DELETE FROM log_entries WHERE server_id = ? AND stream = ?').run(serverId, stream);
    else this.db.prepare('DELETE FROM log_entries WHERE server_id = ?').run(serverId);
  }

  /** Deletes entries of servers that no longer exist (removed while we were not looking). */
  deleteOrphans(): number {
    return this.db.prepare('DELETE FROM log_entries WHERE server_id NOT IN (SELECT id FROM servers)').run().changes;
  }

  /** Keeps the newest `maxEntries` of one stream. Cheap: walks that stream's index only. */
  trimStream(serverId: string, stream: LogStream, maxEntries: number): number {
    const cutoff = this.db
      .prepare('SELECT seq FROM log_entries WHERE server_id = ? AND stream = ? ORDER BY seq DESC LIMIT 1 OFFSET ?')
      .get(serverId, stream, maxEntries) as { seq: number } | undefined;
    if (!cutoff) return 0;
    return this.db.prepare('DELETE FROM log_entries WHERE server_id = ? AND stream = ? AND seq <= ?').run(serverId, stream, cutoff.seq)
      .changes;
  }

  /** Applies every retention limit: age, entries per stream, total size. Returns how many rows went. */
  trim(settings: LogSettings, now: number): number {
    return this.db.transaction(() => {
      let deleted = this.db.prepare('DELETE FROM log_entries WHERE ts < ?').run(now - settings.maxAgeDays * DAY_MS).changes;
      const over = this.db
        .prepare('SELECT server_id, stream FROM log_entries GROUP BY server_id, stream HAVING COUNT(*) > ?')
        .all(settings.maxEntriesPerStream) as { server_id: string; stream: LogStream }[];
      for (const { server_id, stream } of over) deleted += this.trimStream(server_id, stream, settings.maxEntriesPerStream);
      const maxBytes = settings.maxTotalMB * 1024 * 1024;
      if (this.stats().bytes > maxBytes) {
        // The newest entry that no longer fits: it and everything older goes.
        const cutoff = this.db
          .prepare(
            'SELECT seq FROM (SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC ROWS UNBOUNDED PRECEDING) AS running FROM log_entries) WHERE running > ? ORDER BY seq DESC LIMIT 1',
          )
          .get(maxBytes) as { seq: number } | undefined;
        if (cutoff) deleted += this.db.prepare('DELETE FROM log_entries WHERE seq <= ?').run(cutoff.seq).changes;
      }
      return deleted;
    })();
  }

  /** Rows and their approximate bytes. */
  stats(): { rows: number; bytes: number } {
    const row = this.db.prepare('SELECT COUNT(*) AS rows, COALESCE(SUM(bytes), 0) AS bytes FROM log_entries').get() as {
      rows: number;
      bytes: number;
    };
    return row;
  }
}

function toRecord(row: Row): LogRecord {
  const meta = row.meta ? (JSON.parse(row.meta) as Meta) : {};
  const entry: LogEntry = {
    seq: row.seq,
    serverId: row.server_id,
    stream: row.stream,
    ts: row.ts,
    level: LOG_LEVELS[row.level] ?? 'info',
    text: row.text,
    ...(row.method !== null ? { method: row.method } : {}),
    ...(row.logger !== null ? { logger: row.logger } : {}),
    ...meta,
  };
  return {
    entry,
    size: row.bytes,
    ...(row.detail != null ? { detail: row.detail, truncated: row.truncated === 1 } : {}),
  };
}
