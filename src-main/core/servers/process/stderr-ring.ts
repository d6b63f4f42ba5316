/**
 * Bounded memory of a server's stderr, as lines.
 *
 * stderr must be read continuously from the first byte: a server that logs more than the pipe
 * buffer (64 KB on Linux) before answering would otherwise block forever on write. What we keep
 * is bounded by line count and bytes (a `BoundedRing`), so a server logging gigabytes costs nothing
 * but CPU.
 */
import { StringDecoder } from 'node:string_decoder';
import { BoundedRing } from '../../bounded-ring';

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
  private readonly maxLineLength: number;
  private readonly onLine: ((line: string) => void) | undefined;
  /** The kept lines; bytes counted as UTF-16 length. */
  private readonly kept: BoundedRing<string>;
  /** The current incomplete line, already capped at maxLineLength. */
  private partial = '';
  private partialDropped = 0;
  /**
   * Keeps a multi-byte character split across chunks intact. Node's StringDecoder rather than a
   * streaming TextDecoder: a chunk per line is the common case (a server logging each request), and
   * `TextDecoder.decode(chunk, { stream: true })` took about twice as long per chunk (≈ 170 vs 90 ns in
   * a micro-benchmark of short lines; more on the cold path of a tool call, where profiles showed it).
   */
  private readonly decoder = new StringDecoder('utf8');
  private total = 0;

  constructor(options: StderrRingOptions = {}) {
    this.kept = new BoundedRing<string>({
      maxItems: Math.max(1, options.maxLines ?? STDERR_DEFAULTS.maxLines),
      maxBytes: Math.max(1, options.maxBytes ?? STDERR_DEFAULTS.maxBytes),
      sizeOf: (line) => line.length,
    });
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
    const text = this.decoder.write(chunk);
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
    const rest = this.decoder.end();
    if (rest) this.appendPartial(rest, 0, rest.length);
    if (this.partial || this.partialDropped) this.commitPartial();
  }

  /** The last `n` kept lines (all when omitted), oldest first. */
  lines(n: number = this.kept.size): string[] {
    return this.kept.tail(n);
  }

  /** The most recent line, if any. */
  get lastLine(): string | undefined {
    return this.kept.newest;
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
    this.kept.push(line);
    this.onLine?.(line);
  }
}
