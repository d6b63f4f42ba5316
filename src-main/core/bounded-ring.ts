/**
 * The newest items of a stream, in memory, bounded by count and by size: O(1) append and eviction
 * (amortized: the storage grows by doubling up to the count cap, so a quiet stream costs a few
 * slots, not the cap), so a flood costs CPU but never memory. One type for both rings of the core:
 * a server's stderr lines (`servers/process/stderr-ring.ts`) and each log stream (`logs/log-ring.ts`).
 */

/** The caps of a {@link BoundedRing}. */
export interface BoundedRingLimits<T> {
  /** Most recent items kept (at least 1). */
  maxItems: number;
  /** Most recent size kept, summed over `sizeOf`; the newest item is always kept, whatever its size. */
  maxBytes: number;
  /** The size of one item, in the unit of `maxBytes`. */
  sizeOf: (item: T) => number;
}

/** Slots a ring starts with; it doubles on demand up to its count cap. */
const INITIAL_SLOTS = 16;

/** A ring buffer of the newest items, oldest first. See the module comment. */
export class BoundedRing<T> {
  /** Circular storage: `count` items starting at `first`. */
  private slots: (T | undefined)[] = [];
  private readonly maxSlots: number;
  private first = 0;
  private count = 0;
  private bytes = 0;

  constructor(private readonly caps: BoundedRingLimits<T>) {
    this.maxSlots = Math.max(1, caps.maxItems);
  }

  /** Items kept. */
  get size(): number {
    return this.count;
  }

  /** Summed size of the items kept. */
  get byteSize(): number {
    return this.bytes;
  }

  /** The most recent item, if any. */
  get newest(): T | undefined {
    return this.count === 0 ? undefined : this.at(this.count - 1);
  }

  /** The item at `index` (0 = the oldest kept); `index` must be below `size`. */
  at(index: number): T {
    return this.slots[(this.first + index) % this.slots.length] as T;
  }

  /** Appends an item, evicting the oldest ones beyond either cap. */
  push(item: T): void {
    if (this.count === this.slots.length) {
      if (this.slots.length < this.maxSlots) this.grow();
      else this.evictOldest();
    }
    this.slots[(this.first + this.count) % this.slots.length] = item;
    this.count += 1;
    this.bytes += this.caps.sizeOf(item);
    while (this.bytes > this.caps.maxBytes && this.count > 1) this.evictOldest();
  }

  /** The last `n` items (all when omitted), oldest first. */
  tail(n: number = this.count): T[] {
    const take = Math.min(Math.max(0, n), this.count);
    const out: T[] = [];
    for (let i = this.count - take; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  /** The items newest first (for paging backwards). */
  *newestFirst(): Generator<T> {
    for (let i = this.count - 1; i >= 0; i--) yield this.at(i);
  }

  /**
   * Evicts the oldest items while more than `keep` are kept and `evictable` says yes to the oldest;
   * stops at the first it says no to (the items stay in order: what is left is still the newest).
   */
  dropOldestWhile(keep: number, evictable: (item: T) => boolean): void {
    while (this.count > keep && evictable(this.at(0))) this.evictOldest();
  }

  /** Forgets every item (and gives the storage back). */
  clear(): void {
    this.slots = [];
    this.first = 0;
    this.count = 0;
    this.bytes = 0;
  }

  /** Doubles the storage (up to the count cap), oldest item first. */
  private grow(): void {
    const next = Math.min(this.maxSlots, Math.max(INITIAL_SLOTS, this.slots.length * 2));
    const slots: (T | undefined)[] = [];
    for (let i = 0; i < this.count; i++) slots.push(this.at(i));
    for (let i = this.count; i < next; i++) slots.push(undefined);
    this.slots = slots;
    this.first = 0;
  }

  private evictOldest(): void {
    this.bytes -= this.caps.sizeOf(this.at(0));
    this.slots[this.first] = undefined;
    this.first = (this.first + 1) % this.slots.length;
    this.count -= 1;
  }
}
