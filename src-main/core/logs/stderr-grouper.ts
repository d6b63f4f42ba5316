/**
 * Groups a server's stderr lines into Output entries: a stack trace is one entry, not one row per
 * frame. A line continues the entry before it when it is indented (`    at f (file.js:1:2)`, Python's
 * `  File "x.py", line 3`), is a JVM trailer (`Caused by: …`, `... 12 more`), or ends a Python
 * traceback (the unindented `ValueError: …` after `Traceback (most recent call last):`).
 *
 * Only the shape of the lines decides, never how they arrived in chunks: the pipe coalesces writes
 * under load, so grouping by chunk would group differently on a busy machine. The last entry waits for
 * its continuation briefly (`idleMs`), and is flushed at once when the next entry starts or the
 * server's state changes, so nothing is held back for long and the order of entries is kept.
 */

export interface StderrGrouperOptions {
  /** How long the last entry waits for more lines before it is emitted (default 50 ms). */
  idleMs?: number;
  /** An entry has at most this many lines; the next line starts a new one (default 200). */
  maxLines?: number;
  /** And at most this many characters (default 32 KB). */
  maxChars?: number;
}

const CONTINUATION = /^(?:[ \t]+\S|Caused by: |\.\.\. \d+ more)/;
const PYTHON_TRACEBACK = 'Traceback (most recent call last):';

export class StderrGrouper {
  private lines: string[] = [];
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly idleMs: number;
  private readonly maxLines: number;
  private readonly maxChars: number;

  /** `emit` gets each entry's text (its lines joined by `\n`), in order. */
  constructor(
    private readonly emit: (text: string) => void,
    options: StderrGrouperOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 50;
    this.maxLines = options.maxLines ?? 200;
    this.maxChars = options.maxChars ?? 32 * 1024;
  }

  /** One complete stderr line. */
  line(line: string): void {
    if (this.lines.length > 0 && this.lines.length < this.maxLines && this.chars + line.length < this.maxChars) {
      if (CONTINUATION.test(line)) {
        this.add(line);
        return;
      }
      if (this.lines[0] === PYTHON_TRACEBACK && line.trim() !== '') {
        // The exception line closes a Python traceback.
        this.add(line);
        this.flush();
        return;
      }
    }
    this.flush();
    this.add(line);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.idleMs);
    this.timer.unref?.();
  }

  /** Emits the entry being gathered, if any (the server's state changed, or it is going away). */
  flush(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0] : this.lines.join('\n');
    this.lines = [];
    this.chars = 0;
    this.emit(text);
  }

  /** Flushes and stops the timer. */
  dispose(): void {
    this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private add(line: string): void {
    this.lines.push(line);
    this.chars += line.length + 1;
  }
}
