import fs from 'node:fs';
import path from 'node:path';

export interface RotatingLogFileOptions {
  /** The current file, e.g. `<data>/logs/patchbay.log`; older ones sit beside it as `patchbay.1.log`, `patchbay.2.log`… */
  file: string;
  /** A file is rotated before it would grow past this (default 2 MiB). */
  maxBytes?: number;
  /** Files kept in all, the current one included (default 4). */
  keep?: number;
  /** How long lines wait to be written together (default 250 ms). */
  flushMs?: number;
  /** Pending text beyond this is dropped, and the drop said in the file (default 1 MiB). */
  maxPendingBytes?: number;
}

/**
 * A plain-text log file that rotates by size and keeps a few old files. Lines are batched and written
 * on a short timer (one small write, never one per line); `flushSync` writes at once for the paths
 * where the process may end next (an uncaught exception, quit). Writing never throws: a log that
 * cannot be written must not take the app down, so the first failure is reported on stderr and the
 * file is given up.
 */
export class RotatingLogFile {
  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly flushMs: number;
  private readonly maxPendingBytes: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private dropped = 0;
  private size: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failed = false;
  private closed = false;

  constructor(options: RotatingLogFileOptions) {
    this.file = options.file;
    this.maxBytes = Math.max(1024, options.maxBytes ?? 2 * 1024 * 1024);
    this.keep = Math.max(1, options.keep ?? 4);
    this.flushMs = options.flushMs ?? 250;
    this.maxPendingBytes = options.maxPendingBytes ?? 1024 * 1024;
  }

  /** Queues one line (a newline is added); it reaches the file within `flushMs`. */
  append(line: string): void {
    if (this.failed || this.closed) return;
    const bytes = Buffer.byteLength(line) + 1;
    if (this.pendingBytes + bytes > this.maxPendingBytes) {
      this.dropped += 1;
      return;
    }
    this.pending.push(line);
    this.pendingBytes += bytes;
    this.timer ??= setTimeout(() => this.flushSync(), this.flushMs).unref();
  }

  /** Writes everything pending now, rotating first when the file would outgrow its limit. */
  flushSync(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failed || (this.pending.length === 0 && this.dropped === 0)) return;
    if (this.dropped > 0) {
      this.pending.push(`… ${this.dropped} log lines were dropped: they arrived faster than the file is written`);
      this.dropped = 0;
    }
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingBytes = 0;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.size ??= fileSize(this.file);
      const bytes = Buffer.byteLength(text);
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      fs.appendFileSync(this.file, text, { mode: 0o600 });
      this.size += bytes;
    } catch (error) {
      this.failed = true;
      console.error(`[patchbay] cannot write the log file ${this.file}: ${(error as Error).message}`);
    }
  }

  /** The last `count` lines written (pending ones included), oldest first; from the previous file too when the current one is short. */
  tail(count: number): string[] {
    this.flushSync();
    const lines: string[] = [];
    for (let index = 0; index < this.keep && lines.length < count; index++) {
      const text = readIfExists(this.olderFile(index));
      if (text === undefined) break;
      const fileLines = text.split('\n').filter((line) => line !== '');
      lines.unshift(...fileLines.slice(-(count - lines.length)));
    }
    return lines;
  }

  /** Writes what is pending and stops accepting lines. */
  close(): void {
    this.flushSync();
    this.closed = true;
  }

  /** `patchbay.log` for 0, `patchbay.1.log` for 1… */
  olderFile(index: number): string {
    if (index === 0) return this.file;
    const { dir, name, ext } = path.parse(this.file);
    return path.join(dir, `${name}.${index}${ext}`);
  }

  private rotate(): void {
    fs.rmSync(this.olderFile(this.keep - 1), { force: true });
    for (let index = this.keep - 2; index >= 0; index--) {
      if (fs.existsSync(this.olderFile(index))) fs.renameSync(this.olderFile(index), this.olderFile(index + 1));
    }
    this.size = 0;
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
