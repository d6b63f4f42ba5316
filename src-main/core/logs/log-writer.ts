import type { LogStream } from '../../../src-preload/contract';
import type { LogRecord } from './log-record';
import { streamKey } from './log-record';
import type { LogRepository } from './log-repository';

export interface LogWriterOptions {
  /** How often pending records are written, in one transaction (default 500 ms). */
  flushMs?: number;
  /** Most records of one stream written per flush; the rest of a flood is counted, not kept (default 2000). */
  maxPerStreamPerFlush?: number;
  /** After a write: this stream had `dropped` records beyond the per-flush cap, counted but not kept. */
  onDropped?(serverId: string, stream: LogStream, dropped: number): void;
  /** After each successful write: how many records each stream got. */
  onWritten?(counts: Map<string, { serverId: string; stream: LogStream; count: number }>): void;
}

interface Bucket {
  serverId: string;
  stream: LogStream;
  records: LogRecord[];
  dropped: number;
}

/**
 * Persists log records in batches: one transaction every `flushMs`, never one per line. Memory is
 * bounded per stream: a server flooding stderr faster than SQLite could keep up gets its first
 * `maxPerStreamPerFlush` lines of each interval saved, the rest counted (`onDropped`; the in-memory
 * ring still has the newest).
 */
export class LogWriter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly flushMs: number;
  private readonly maxPerFlush: number;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly repo: LogRepository,
    private readonly options: LogWriterOptions,
  ) {
    this.flushMs = options.flushMs ?? 500;
    this.maxPerFlush = options.maxPerStreamPerFlush ?? 2000;
  }

  /** Records waiting for the next flush. */
  get pending(): number {
    let n = 0;
    for (const bucket of this.buckets.values()) n += bucket.records.length;
    return n;
  }

  add(record: LogRecord): void {
    if (this.disposed) return;
    const { serverId, stream } = record.entry;
    const key = streamKey(serverId, stream);
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { serverId, stream, records: [], dropped: 0 }));
    if (bucket.records.length < this.maxPerFlush) bucket.records.push(record);
    else {
      bucket.dropped += 1;
      record.saved = false;
    }
    this.timer ??= setTimeout(() => this.flush(), this.flushMs).unref();
  }

  /** Writes everything pending now (before a query reads the database, and at shutdown). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buckets.size === 0) return;
    const batch: LogRecord[] = [];
    const counts = new Map<string, { serverId: string; stream: LogStream; count: number }>();
    const overflowed: Bucket[] = [];
    for (const [key, bucket] of this.buckets) {
      batch.push(...bucket.records);
      if (bucket.dropped > 0) overflowed.push(bucket);
      counts.set(key, { serverId: bucket.serverId, stream: bucket.stream, count: bucket.records.length });
    }
    this.buckets.clear();
    try {
      this.repo.insertBatch(batch);
      for (const record of batch) record.saved = true;
      this.options.onWritten?.(counts);
    } catch (error) {
      // Dropped rather than retried: a failing disk must not make the log grow in memory.
      for (const record of batch) record.saved = false;
      console.error(`[patchbay] could not save ${batch.length} log entries:`, error);
    }
    // Told after the buckets were emptied: a marker appended now is first in line for the next write.
    for (const bucket of overflowed) this.options.onDropped?.(bucket.serverId, bucket.stream, bucket.dropped);
  }

  /** Forgets pending records of a server (one stream, or all). */
  discard(serverId: string, stream?: LogStream): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.serverId === serverId && (!stream || bucket.stream === stream)) {
        for (const record of bucket.records) record.saved = false;
        this.buckets.delete(key);
      }
    }
  }

  /** Final flush; later records are ignored. */
  dispose(): void {
    this.flush();
    this.disposed = true;
  }
}
