/**
 * The start timeout of a server, which is not a plain timer: a first-run `npx` or `uvx` may spend
 * minutes downloading before the server answers `initialize`, and it says so on stderr. While the
 * process keeps producing output the deadline moves; silence for `idleTimeoutMs` (or the hard
 * `maxTotalMs` cap) ends the wait.
 */

export interface StartWatchdogOptions {
  /** Give up after this long without answer *and* without output (default in the connection: 60 s). */
  idleTimeoutMs: number;
  /** Never wait longer than this in total, output or not. */
  maxTotalMs: number;
  /** Called once when the watchdog gives up. */
  onExpire: (cause: 'idle' | 'total') => void;
  /** Called once, the first time output kept the server alive past `idleTimeoutMs`. */
  onExtended?: () => void;
  now?: () => number;
}

/**
 * One timer, re-armed only when it fires (activity merely records a timestamp), so a server that
 * writes 100 000 stderr lines costs 100 000 assignments, not 100 000 timer resets.
 */
export class StartWatchdog {
  private readonly now: () => number;
  private readonly startedAt: number;
  private lastActivityAt: number;
  private timer: NodeJS.Timeout | undefined;
  private done = false;
  private extended = false;

  constructor(private readonly options: StartWatchdogOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.lastActivityAt = this.startedAt;
    this.arm(Math.min(options.idleTimeoutMs, options.maxTotalMs));
  }

  /** Whether output has already kept the server alive past the plain timeout. */
  get wasExtended(): boolean {
    return this.extended;
  }

  /** Records that the process produced output. */
  activity(): void {
    this.lastActivityAt = this.now();
  }

  /** Stops the watchdog (start finished one way or another). Idempotent. */
  stop(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(0, ms));
    this.timer.unref?.();
  }

  private check(): void {
    if (this.done) return;
    const now = this.now();
    const totalDeadline = this.startedAt + this.options.maxTotalMs;
    const idleDeadline = this.lastActivityAt + this.options.idleTimeoutMs;
    if (now >= totalDeadline) return this.expire('total');
    if (now >= idleDeadline) return this.expire('idle');
    if (!this.extended && now >= this.startedAt + this.options.idleTimeoutMs) {
      this.extended = true;
      this.options.onExtended?.();
    }
    this.arm(Math.min(idleDeadline, totalDeadline) - now);
  }

  private expire(cause: 'idle' | 'total'): void {
    this.stop();
    this.options.onExpire(cause);
  }
}
