import type { HostEvents, LogEntry, LogStream } from '@contract';

export interface LiveBatcherOptions {
  /** How often a batch goes out while entries arrive (default 150 ms). */
  flushMs?: number;
  /** Most entries of one stream per batch; under a flood the newest are kept (default 250). */
  maxPerStream?: number;
  emit(batch: HostEvents['logAppended']): void;
}

/** An entry to send, read only when its batch goes out (a `DeferredRecord` is made then, not before). */
export interface LiveItem {
  readonly entry: LogEntry;
}

/** The newest `max` entries of one stream since the last batch, in a fixed circular buffer. */
interface Bucket {
  serverId: string;
  stream: LogStream;
  slots: LiveItem[];
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

  /** `key`: the stream's `streamKey(serverId, stream)`, which the caller has at hand. */
  add(key: string, serverId: string, stream: LogStream, item: LiveItem): void {
    if (this.disposed) return;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { serverId, stream, slots: [], added: 0 }));
    // O(1) whatever the rate: overwrite the oldest slot once full.
    if (bucket.slots.length < this.max) bucket.slots.push(item);
    else bucket.slots[bucket.added % this.max] = item;
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
      // Oldest first: once the slots wrapped around, the oldest kept is at `added % max`.
      const start = added <= slots.length ? 0 : added % this.max;
      for (let i = 0; i < slots.length; i++) batch.entries.push(slots[(start + i) % slots.length].entry);
      if (added > slots.length) {
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
