import type { LogRecord } from './log-record';

/** The caps of one ring. */
export interface RingLimits {
  /** Most recent entries kept. */
  entries: number;
  /** Most recent bytes kept (see `recordSize`); the newest entry is always kept. */
  bytes: number;
}

/** Slots a ring starts with; it doubles on demand up to its entry cap. */
const INITIAL_SLOTS = 16;

/**
 * The newest entries of one server's stream, in memory, bounded by count and bytes: O(1) append and
 * eviction (amortized: the storage grows by doubling up to the entry cap, so a quiet server costs a
 * few slots, not the cap), so a server flooding stderr costs CPU but never memory. Entries are in seq order.
 */
export class LogRing {
  private slots: (LogRecord | undefined)[];
  private readonly maxSlots: number;
  private first = 0;
  private count = 0;
  private bytes = 0;

  constructor(readonly limits: RingLimits) {
    this.maxSlots = Math.max(1, limits.entries);
    this.slots = [];
  }

  get size(): number {
    return this.count;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** Seq of the oldest entry kept, or undefined when empty. */
  get oldestSeq(): number | undefined {
    return this.count === 0 ? undefined : this.at(0).entry.seq;
  }

  push(record: LogRecord): void {
    if (this.count === this.slots.length) {
      if (this.slots.length < this.maxSlots) this.grow();
      else this.evictOldest();
    }
    this.slots[(this.first + this.count) % this.slots.length] = record;
    this.count += 1;
    this.bytes += record.size;
    while (this.bytes > this.limits.bytes && this.count > 1) this.evictOldest();
  }

  /** Entries newest first (for paging backwards). */
  *newestFirst(): Generator<LogRecord> {
    for (let i = this.count - 1; i >= 0; i--) yield this.at(i);
  }

  /** The last `n` entries, oldest first. */
  tail(n: number): LogRecord[] {
    const take = Math.min(Math.max(0, n), this.count);
    const out: LogRecord[] = [];
    for (let i = this.count - take; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  /** The entry with this seq, if kept (binary search: seqs increase). */
  find(seq: number): LogRecord | undefined {
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const record = this.at(mid);
      if (record.entry.seq === seq) return record;
      if (record.entry.seq < seq) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  clear(): void {
    this.slots = [];
    this.first = 0;
    this.count = 0;
    this.bytes = 0;
  }

  private at(index: number): LogRecord {
    return this.slots[(this.first + index) % this.slots.length] as LogRecord;
  }

  /** Doubles the storage (up to the cap), oldest entry first. */
  private grow(): void {
    const next = Math.min(this.maxSlots, Math.max(INITIAL_SLOTS, this.slots.length * 2));
    const slots: (LogRecord | undefined)[] = [];
    for (let i = 0; i < this.count; i++) slots.push(this.at(i));
    for (let i = this.count; i < next; i++) slots.push(undefined);
    this.slots = slots;
    this.first = 0;
  }

  private evictOldest(): void {
    this.bytes -= this.at(0).size;
    this.slots[this.first] = undefined;
    this.first = (this.first + 1) % this.slots.length;
    this.count -= 1;
  }
}
