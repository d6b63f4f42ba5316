import type { LogStream } from '@contract';
import type { LogRecord } from './log-record';
import type { LogRepository } from './log-repository';

export interface LogWriterOptions {
  /** How often pending records are written, in one transaction (default 500 ms). */
  flushMs?: number;
  /** Most records of one stream written per flush; the rest of a flood is counted, not kept (default 500). */
  maxPerStreamPerFlush?: number;
  /** After a write: this stream had `dropped` records beyond the per-flush cap, counted but not kept. */
  onDropped?(serverId: string, stream: LogStream, dropped: number): void;
  /** After each successful write: how many records each stream got. */
  onWritten?(counts: Map<string, { serverId: string; stream: LogStream; count: number }>): void;
}

/**
 * Rows per transaction when a timed flush writes a big batch: ≈ 3 ms each on the bench machine, so a
 * busy interval (thousands of protocol and Output rows) never blocks the main thread for tens of
 * milliseconds at once — calls and UI requests get their turn between slices.
 */
const SLICE_ROWS = 500;

/** A timed flush in progress: its batch, written `SLICE_ROWS` at a time, one turn of the event loop each. */
interface Slicing {
  batch: LogRecord[];
  next: number;
  counts: Map<string, { serverId: string; stream: LogStream; count: number }>;
  overflowed: Bucket[];
  failed: boolean;
  immediate?: NodeJS.Immediate;
}

interface Bucket {
  serverId: string;
  stream: LogStream;
  records: LogRecord[];
  dropped: number;
}

/**
 * Records of one stream saved per flush: 1,000 a second, far more than anyone reads (the ring keeps the
 * newest in memory, and the gap is said in the stream). Each saved record is made (parsed, previewed,
 * redacted) and inserted; saving more cost every busy server's calls host CPU, and let a flood push a
 * stream's whole saved history (20,000 entries by default) out of retention in seconds (docs/benchmarks.md).
 */
const MAX_PER_STREAM_PER_FLUSH = 500;

/**
 * Persists log records in batches: every `flushMs`, never one transaction per line, a big batch in
 * slices of `SLICE_ROWS` (see there); reads and shutdown write everything at once (`flush`). Memory is
 * bounded per stream: a server flooding stderr faster than SQLite could keep up gets its first
 * `maxPerStreamPerFlush` lines of each interval saved, the rest counted (`onDropped`; the in-memory
 * ring still has the newest).
 */
export class LogWriter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly flushMs: number;
  private readonly maxPerFlush: number;
  private timer: NodeJS.Timeout | undefined;
  private slicing: Slicing | undefined;
  private disposed = false;

  constructor(
    private readonly repo: LogRepository,
    private readonly options: LogWriterOptions,
  ) {
    this.flushMs = options.flushMs ?? 500;
    this.maxPerFlush = options.maxPerStreamPerFlush ?? MAX_PER_STREAM_PER_FLUSH;
  }

  /** Most records of one stream saved per second (what the cap per flush comes to). */
  get savedPerSecond(): number {
    return Math.round((this.maxPerFlush * 1000) / this.flushMs);
  }

  /** Records waiting for the next flush. */
  get pending(): number {
    let n = 0;
    for (const bucket of this.buckets.values()) n += bucket.records.length;
    return n;
  }

  /** `key`: the stream's `streamKey(serverId, stream)`, which the caller has at hand. */
  add(key: string, serverId: string, stream: LogStream, record: LogRecord): void {
    if (this.disposed) return;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { serverId, stream, records: [], dropped: 0 }));
    if (bucket.records.length < this.maxPerFlush) bucket.records.push(record);
    else {
      bucket.dropped += 1;
      record.saved = false;
    }
    this.timer ??= setTimeout(() => this.flushInSlices(), this.flushMs).unref();
  }

  /** Writes everything pending now, in one transaction (before a query reads the database, and at shutdown). */
  flush(): void {
    this.finishSlices();
    clearTimeout(this.timer);
    this.timer = undefined;
    const slicing = this.take();
    if (!slicing) return;
    this.write(slicing, slicing.batch);
    this.settled(slicing);
  }

  /** The timed flush: what is pending, a slice per turn of the event loop. */
  private flushInSlices(): void {
    this.timer = undefined;
    // Still writing the last interval's batch (a flood): this one starts after it.
    if (this.slicing) {
      this.timer = setTimeout(() => this.flushInSlices(), this.flushMs).unref();
      return;
    }
    this.slicing = this.take();
    this.writeSlice();
  }

  private writeSlice(): void {
    const slicing = this.slicing;
    if (!slicing) return;
    slicing.immediate = undefined;
    const end = Math.min(slicing.batch.length, slicing.next + SLICE_ROWS);
    this.write(slicing, slicing.batch.slice(slicing.next, end));
    slicing.next = end;
    if (end < slicing.batch.length) {
      slicing.immediate = setImmediate(() => this.writeSlice());
      return;
    }
    this.slicing = undefined;
    this.settled(slicing);
  }

  /** Writes what is left of a sliced flush at once (a read or shutdown is waiting for it). */
  private finishSlices(): void {
    const slicing = this.slicing;
    if (!slicing) return;
    if (slicing.immediate) clearImmediate(slicing.immediate);
    this.slicing = undefined;
    this.write(slicing, slicing.batch.slice(slicing.next));
    this.settled(slicing);
  }

  /** Empties the buckets into one batch (undefined when nothing is pending). */
  private take(): Slicing | undefined {
    if (this.buckets.size === 0) return undefined;
    const batch: LogRecord[] = [];
    const counts = new Map<string, { serverId: string; stream: LogStream; count: number }>();
    const overflowed: Bucket[] = [];
    for (const [key, bucket] of this.buckets) {
      batch.push(...bucket.records);
      if (bucket.dropped > 0) overflowed.push(bucket);
      counts.set(key, { serverId: bucket.serverId, stream: bucket.stream, count: bucket.records.length });
    }
    this.buckets.clear();
    return { batch, next: 0, counts, overflowed, failed: false };
  }

  private write(slicing: Slicing, records: LogRecord[]): void {
    if (records.length === 0) return;
    try {
      this.repo.insertBatch(records);
      for (const record of records) {
        record.saved = true;
        // On disk now: memory lets the detail go (up to 64 KB each); reads fetch it back (`LogService.entry`).
        if (record.detail !== undefined) {
          record.detail = undefined;
          record.detailOnDisk = true;
        }
      }
    } catch (error) {
      // Dropped rather than retried: a failing disk must not make the log grow in memory.
      for (const record of records) record.saved = false;
      slicing.failed = true;
      console.error(`[patchbay] could not save ${records.length} log entries:`, error);
    }
  }

  /** The whole batch is written (or failed): trimming and detail release, then the flood markers. */
  private settled(slicing: Slicing): void {
    if (!slicing.failed) this.options.onWritten?.(slicing.counts);
    // Told after the buckets were emptied: a marker appended now is first in line for the next write.
    for (const bucket of slicing.overflowed) this.options.onDropped?.(bucket.serverId, bucket.stream, bucket.dropped);
  }

  /** Forgets pending records of a server (one stream, or all). */
  discard(serverId: string, stream?: LogStream): void {
    const matches = (record: LogRecord) => record.entry.serverId === serverId && (!stream || record.entry.stream === stream);
    const slicing = this.slicing;
    if (slicing) {
      // Not written yet: never written (a removed server's rows must not come back).
      const tail = slicing.batch.slice(slicing.next);
      for (const record of tail) if (matches(record)) record.saved = false;
      slicing.batch = slicing.batch.slice(0, slicing.next).concat(tail.filter((record) => !matches(record)));
    }
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
