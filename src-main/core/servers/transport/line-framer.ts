/**
 * Newline-delimited framing for a server's stdout.
 *
 * Why not the SDK's `ReadBuffer`: it concatenates the whole pending buffer with every new chunk,
 * so a 10 MB message arriving in 64 KB chunks costs ~160 copies of a growing buffer (quadratic).
 * Here chunks are kept in an array and concatenated once, when the newline arrives.
 */

/** What an oversized line looked like: enough to name it in an error without keeping it. */
export interface OversizedLine {
  /** Total size of the discarded line in bytes (without the newline). */
  bytes: number;
  /** The first bytes of the line, decoded (may end mid-character). */
  head: string;
  /** The last bytes of the line, decoded (may start mid-character). */
  tail: string;
}

/** Limits and callbacks of a {@link LineFramer}. */
export interface LineFramerOptions {
  /** Lines longer than this many bytes are discarded (and reported) instead of delivered. */
  maxLineBytes: number;
  /** Called with each complete line, decoded as UTF-8, without its `\n` (or `\r\n`). */
  onLine: (line: string) => void;
  /**
   * Sees each complete line before it is decoded (a view into the chunk: copy it to keep it); false
   * consumes the line there, undecoded (a flood of unwanted lines then costs no string each).
   */
  screen?: (line: Buffer) => boolean;
  /** Called once per discarded line, when its terminating newline arrives. */
  onOversized: (info: OversizedLine) => void;
}

/** How many bytes of an oversized line's start and end are kept for the report. */
const SNIPPET_BYTES = 256;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into lines in time linear in the input size. Empty lines are skipped.
 * Not thread-safe, not re-entrant: feed it from a single stream's `data` events.
 */
export class LineFramer {
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while skipping the rest of an oversized line; holds its head snippet. */
  private discarding: { head: Buffer; tail: Buffer } | undefined;

  constructor(private readonly options: LineFramerOptions) {}

  /** Bytes currently buffered for an incomplete line (0 while discarding one). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Feeds one chunk of stdout. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /**
   * Called at end of stream. A trailing line without a newline is delivered (a server that
   * writes its last message and exits without `\n` still gets its message through).
   */
  end(): void {
    if (this.pendingBytes > 0 || this.discarding) this.finishLine();
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.discarding) {
      this.discarding.tail = keepTail(this.discarding.tail, piece);
      this.pendingBytes += piece.length;
      return;
    }
    this.chunks.push(piece);
    this.pendingBytes += piece.length;
    if (this.pendingBytes > this.options.maxLineBytes) {
      // Switch to discarding: drop what we hold, remember only the edges for the report.
      const held = Buffer.concat(this.chunks);
      this.discarding = {
        head: Buffer.from(held.subarray(0, SNIPPET_BYTES)),
        tail: Buffer.from(held.subarray(Math.max(0, held.length - SNIPPET_BYTES))),
      };
      this.chunks = [];
    }
  }

  private finishLine(): void {
    const bytes = this.pendingBytes;
    const discarding = this.discarding;
    const chunks = this.chunks;
    this.chunks = [];
    this.pendingBytes = 0;
    this.discarding = undefined;
    if (discarding) {
      this.options.onOversized({
        bytes: bytes - (endsWithCarriageReturn(discarding.tail) ? 1 : 0),
        head: discarding.head.toString('utf8'),
        tail: stripCarriageReturn(discarding.tail).toString('utf8'),
      });
      return;
    }
    if (bytes === 0) return;
    // The single concatenation per line; a one-chunk line is not even copied.
    const line = stripCarriageReturn(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, bytes));
    if (line.length === 0) return;
    if (this.options.screen && !this.options.screen(line)) return;
    this.options.onLine(line.toString('utf8'));
  }
}

function keepTail(previous: Buffer, piece: Buffer): Buffer {
  if (piece.length >= SNIPPET_BYTES) return Buffer.from(piece.subarray(piece.length - SNIPPET_BYTES));
  const joined = Buffer.concat([previous, piece]);
  return joined.subarray(Math.max(0, joined.length - SNIPPET_BYTES));
}

function endsWithCarriageReturn(buffer: Buffer): boolean {
  return buffer.length > 0 && buffer[buffer.length - 1] === CARRIAGE_RETURN;
}

function stripCarriageReturn(buffer: Buffer): Buffer {
  return endsWithCarriageReturn(buffer) ? buffer.subarray(0, buffer.length - 1) : buffer;
}
