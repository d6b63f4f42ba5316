import type { HostEvents, LogEntry, LogStream } from '../../../src-preload/contract';
import { streamKey } from './log-record';

export interface LiveBatcherOptions {
  /** How often a batch goes out while entries arrive (default 150 ms). */
  flushMs?: number;
  /** Most entries of one stream per batch; under a flood the newest are kept (default 250). */
  maxPerStream?: number;
  emit(batch: HostEvents['logAppended']): void;
}

/** The newest `max` entries of one stream since the last batch, in a fixed circular buffer. */
interface Bucket {
  serverId: string;
  stream: LogStream;
  slots: LogEntry[];
  /** Entries ever added since the last batch (more than slots.length: the oldest were overwritten). */
  added: number;
}

/**
 * Turns a stream of entries into a few `logAppended` events per second, never one per line. A stream
 * that produces more than `maxPerStream` entries in one interval has only its newest sent (the rest
 * is counted as skipped), so the renderer's work per second is bounded whatever the servers do.
 */
export class LiveBatcher {
  private readonly buckets = new Map<string, Bucket>();
  private readonly flushMs: number;
  private readonly max: number;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly options: LiveBatcherOptions) {
    this.flushMs = options.flushMs ?? 150;
    this.max = Math.max(1, options.maxPerStream ?? 250);
  }

  add(entry: LogEntry): void {
    if (this.disposed) return;
    const key = streamKey(entry.serverId, entry.stream);
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { serverId: entry.serverId, stream: entry.stream, slots: [], added: 0 }));
    // O(1) whatever the rate: overwrite the oldest slot once full.
    if (bucket.slots.length < this.max) bucket.slots.push(entry);
    else bucket.slots[bucket.added % this.max] = entry;
    bucket.added += 1;
    this.timer ??= setTimeout(() => this.flush(), this.flushMs).unref();
  }

  /** Sends what is pending as one event. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buckets.size === 0) return;
    const batch: HostEvents['logAppended'] = { entries: [], skipped: [] };
    for (const bucket of this.buckets.values()) {
      const { slots, added } = bucket;
      if (added <= slots.length) batch.entries.push(...slots);
      else {
        const start = added % this.max;
        batch.entries.push(...slots.slice(start), ...slots.slice(0, start));
        batch.skipped.push({ serverId: bucket.serverId, stream: bucket.stream, count: added - slots.length });
      }
    }
    this.buckets.clear();
    this.options.emit(batch);
  }

  /** Forgets what is pending for a server (one stream, or all). */
  discard(serverId: string, stream?: LogStream): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.serverId === serverId && (!stream || bucket.stream === stream)) this.buckets.delete(key);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.buckets.clear();
    this.disposed = true;
  }
}
