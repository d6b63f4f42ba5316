/**
 * Bounded memory of a server's stderr, as lines.
 *
 * stderr must be read continuously from the first byte: a server that logs more than the pipe
 * buffer (64 KB on Linux) before answering would otherwise block forever on write. What we keep
 * is bounded by line count and bytes, so a server logging gigabytes costs nothing but CPU.
 */

export interface StderrRingOptions {
  /** Most recent lines kept (default 1000). */
  maxLines?: number;
  /** Most recent bytes kept, counted as UTF-16 length of the kept lines (default 256 KB). */
  maxBytes?: number;
  /** A single line longer than this is truncated (default 8 KB). */
  maxLineLength?: number;
  /** Called for every complete (possibly truncated) line, in order. */
  onLine?: (line: string) => void;
}

/** Default caps of a {@link StderrRing}. */
export const STDERR_DEFAULTS = { maxLines: 1000, maxBytes: 256 * 1024, maxLineLength: 8 * 1024 } as const;

/** Ring buffer of stderr lines, fed with raw chunks. */
export class StderrRing {
  private readonly maxLines: number;
  private readonly maxBytes: number;
  private readonly maxLineLength: number;
  private readonly onLine: ((line: string) => void) | undefined;
  /** Circular storage: `count` lines starting at `first`. O(1) push and evict (amortized: it grows by doubling up to maxLines). */
  private slots: string[] = [];
  private first = 0;
  private count = 0;
  private bytes = 0;
  /** The current incomplete line, already capped at maxLineLength. */
  private partial = '';
  private partialDropped = 0;
  private readonly decoder = new TextDecoder('utf-8');
  private total = 0;

  constructor(options: StderrRingOptions = {}) {
    this.maxLines = Math.max(1, options.maxLines ?? STDERR_DEFAULTS.maxLines);
    this.maxBytes = Math.max(1, options.maxBytes ?? STDERR_DEFAULTS.maxBytes);
    this.maxLineLength = Math.max(16, options.maxLineLength ?? STDERR_DEFAULTS.maxLineLength);
    this.onLine = options.onLine;
  }

  /** Total bytes ever received (for "is the server still producing output?"). */
  get totalBytes(): number {
    return this.total;
  }

  /** Feeds a raw chunk from the stderr pipe. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    // `stream: true` keeps a multi-byte character split across chunks intact.
    const text = this.decoder.decode(chunk, { stream: true });
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      this.appendPartial(text, start, end);
      if (newline === -1) return;
      this.commitPartial();
      start = newline + 1;
    }
  }

  /** Flushes an unterminated last line (call when the stream ends). */
  end(): void {
    const rest = this.decoder.decode();
    if (rest) this.appendPartial(rest, 0, rest.length);
    if (this.partial || this.partialDropped) this.commitPartial();
  }

  /** The last `n` kept lines (all when omitted), oldest first. */
  lines(n: number = this.count): string[] {
    const take = Math.min(Math.max(0, n), this.count);
    const out: string[] = [];
    for (let i = this.count - take; i < this.count; i++) out.push(this.slots[(this.first + i) % this.slots.length]);
    return out;
  }

  /** The most recent line, if any. */
  get lastLine(): string | undefined {
    return this.count === 0 ? undefined : this.slots[(this.first + this.count - 1) % this.slots.length];
  }

  private appendPartial(text: string, start: number, end: number): void {
    const room = this.maxLineLength - this.partial.length;
    const length = end - start;
    if (length <= room) {
      this.partial += text.slice(start, end);
    } else {
      // Keep the start of an over-long line; count what we drop so the line says so.
      if (room > 0) this.partial += text.slice(start, start + room);
      this.partialDropped += length - Math.max(room, 0);
    }
  }

  private commitPartial(): void {
    let line = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial;
    if (this.partialDropped > 0) line += ` … [${this.partialDropped} more characters truncated]`;
    this.partial = '';
    this.partialDropped = 0;
    this.store(line);
    this.onLine?.(line);
  }

  private store(line: string): void {
    if (this.count === this.slots.length) {
      if (this.slots.length < this.maxLines) this.grow();
      else this.evictOldest();
    }
    this.slots[(this.first + this.count) % this.slots.length] = line;
    this.count += 1;
    this.bytes += line.length;
    while (this.bytes > this.maxBytes && this.count > 1) this.evictOldest();
  }

  /** Doubles the storage (up to maxLines), oldest line first. */
  private grow(): void {
    const next = Math.min(this.maxLines, Math.max(16, this.slots.length * 2));
    const slots: string[] = [];
    for (let i = 0; i < this.count; i++) slots.push(this.slots[(this.first + i) % this.slots.length]);
    for (let i = this.count; i < next; i++) slots.push('');
    this.slots = slots;
    this.first = 0;
  }

  private evictOldest(): void {
    this.bytes -= this.slots[this.first].length;
    this.slots[this.first] = '';
    this.first = (this.first + 1) % this.slots.length;
    this.count -= 1;
  }
}
