import type { CallToolResult } from '@modelcontextprotocol/client';

/**
 * The full results whose previews were cut, by call id (or read id: resource reads keep theirs here
 * too), so the rest can be read on demand. Bounded by count and by total size: the least recently
 * used go first (then "run the tool again").
 */
export class ResultCache<T = CallToolResult> {
  private readonly entries = new Map<string, { result: T; size: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries = 32,
    /** Approximate characters kept in all. */
    private readonly maxSize = 128 * 1024 * 1024,
  ) {}

  put(callId: string, result: T, size: number): void {
    this.delete(callId);
    if (size > this.maxSize) return;
    this.entries.set(callId, { result, size });
    this.total += size;
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      this.entries.delete(id);
      this.total -= entry.size;
    }
  }

  /** The result, marked most recently used. */
  get(callId: string): T | undefined {
    const entry = this.entries.get(callId);
    if (!entry) return undefined;
    this.entries.delete(callId);
    this.entries.set(callId, entry);
    return entry.result;
  }

  delete(callId: string): void {
    const entry = this.entries.get(callId);
    if (!entry) return;
    this.entries.delete(callId);
    this.total -= entry.size;
  }

  get size(): number {
    return this.entries.size;
  }
}
