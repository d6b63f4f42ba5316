/**
 * When to restart a crashed server: exponential backoff (1 s, 2 s, 4 s, …) for at most
 * `maxAttempts` consecutive tries, then give up until the user acts.
 *
 * "Consecutive" matters: a server that crashes on its first tool call becomes ready after every
 * restart, so counting only failed *starts* would restart it forever. The count is reset only
 * after the server stayed ready for `stableAfterMs`.
 */

export interface RestartPolicyOptions {
  /** Restart automatically after a crash (default false: the user decides). */
  enabled?: boolean;
  /** Delay before the first restart; doubles each time (default 1000 ms; tests pass a few ms). */
  baseDelayMs?: number;
  /** Restarts tried before giving up (default 5). */
  maxAttempts?: number;
  /** The longest wait between two restarts (default: no cap). */
  maxDelayMs?: number;
  /** A run that stayed ready this long resets the count (default 60 s). */
  stableAfterMs?: number;
}

/** Defaults of {@link RestartPolicyOptions}. */
export const RESTART_DEFAULTS = {
  enabled: false,
  baseDelayMs: 1000,
  maxAttempts: 5,
  maxDelayMs: Number.POSITIVE_INFINITY,
  stableAfterMs: 60_000,
} as const;

/**
 * Remote servers: a lost network is usually a laptop changing networks or sleeping, not a broken
 * server, so keep trying for about half an hour (1 s, 2 s, 4 s … then once a minute).
 */
export const REMOTE_RESTART = { maxAttempts: 30, maxDelayMs: 60_000 } as const;

/** The next restart to schedule. */
export interface RestartDecision {
  /** 1-based attempt number. */
  attempt: number;
  delayMs: number;
}

/** Counts crashes and computes backoff delays. Pure bookkeeping: it schedules nothing itself. */
export class RestartPolicy {
  readonly options: Required<RestartPolicyOptions>;
  private attempts = 0;
  private readySince: number | undefined;

  constructor(options: RestartPolicyOptions = {}) {
    this.options = { ...RESTART_DEFAULTS, ...options };
  }

  /** Restarts used since the last stable run. */
  get attemptsUsed(): number {
    return this.attempts;
  }

  /** The connection became ready at `now`. */
  noteReady(now: number): void {
    this.readySince = now;
  }

  /**
   * The connection crashed (or a restart failed to start) at `now`: the restart to schedule, or
   * undefined when restarts are disabled or used up. `minDelayMs`: not sooner than this (Retry-After).
   */
  onFailure(now: number, minDelayMs = 0): RestartDecision | undefined {
    if (this.readySince !== undefined && now - this.readySince >= this.options.stableAfterMs) this.attempts = 0;
    this.readySince = undefined;
    if (!this.options.enabled || this.attempts >= this.options.maxAttempts) return undefined;
    this.attempts += 1;
    const backoff = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (this.attempts - 1));
    // A server that said how long to wait (Retry-After) is not asked again sooner.
    return { attempt: this.attempts, delayMs: Math.max(backoff, minDelayMs) };
  }

  /** The user started or stopped the server: forget past crashes. */
  reset(): void {
    this.attempts = 0;
    this.readySince = undefined;
  }
}
