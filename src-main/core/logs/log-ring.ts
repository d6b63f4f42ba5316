import { BoundedRing } from '../bounded-ring';
import type { LogRecord } from './log-record';

/** The caps of one ring. */
export interface RingLimits {
  /** Most recent entries kept. */
  entries: number;
  /** Most recent bytes kept (see `recordSize`); the newest entry is always kept. */
  bytes: number;
}

/**
 * The newest entries of one server's stream, in memory, bounded by count and bytes (a
 * `BoundedRing`: O(1) append and eviction, storage grown on demand), so a server flooding stderr
 * costs CPU but never memory. Entries are in seq order. Once saved they are let go (`releaseSaved`):
 * the ring holds what only memory has — entries waiting for their write, and those a flood kept from
 * the disk.
 */
export class LogRing extends BoundedRing<LogRecord> {
  constructor(readonly limits: RingLimits) {
    super({ maxItems: limits.entries, maxBytes: limits.bytes, sizeOf: (record) => record.size });
  }

  /** Seq of the oldest entry kept, or undefined when empty. */
  get oldestSeq(): number | undefined {
    return this.size === 0 ? undefined : this.at(0).entry.seq;
  }

  /**
   * Lets go of the oldest records that are saved in SQLite, down to the newest `keep`: reads find them
   * there. A record not saved (still waiting for its write, or dropped in a flood) and everything
   * newer stay, so the ring is always the newest part of its stream.
   */
  releaseSaved(keep: number): void {
    this.dropOldestWhile(keep, (record) => record.saved === true);
  }

  /** The entry with this seq, if kept (binary search: seqs increase). */
  find(seq: number): LogRecord | undefined {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const record = this.at(mid);
      if (record.entry.seq === seq) return record;
      if (record.entry.seq < seq) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }
}
