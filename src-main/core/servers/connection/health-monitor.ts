/**
 * Liveness of a ready connection: a process can be alive but hung (deadlocked, stuck in an
 * infinite loop on its event loop). When the server has been quiet for `intervalMs`, we ping
 * it; no answer within `timeoutMs` means the connection is dead.
 *
 * Legacy era only: the 2026-07-28 protocol has no session to keep alive, and pinging a modern
 * server would test nothing the next real request does not.
 */

export interface HealthMonitorOptions {
  /** How long the connection may be quiet before a ping (default in the connection: 30 s). */
  intervalMs: number;
  /** How long a ping may take. */
  timeoutMs: number;
  /** Epoch ms of the last message received from the server. */
  lastActivityAt: () => number;
  /** Sends one ping; must reject on timeout or error. */
  ping: (timeoutMs: number) => Promise<unknown>;
  /** Called once, with the ping's error, when a ping failed. The monitor stops itself first. */
  onFailure: (error: unknown) => void;
  now?: () => number;
}

/** Pings an idle connection periodically. Create, `start()`, and `stop()` when the connection ends. */
export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private inFlight = false;
  private readonly now: () => number;

  constructor(private readonly options: HealthMonitorOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    if (!this.stopped || this.options.intervalMs <= 0) return;
    this.stopped = false;
    this.schedule(this.options.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.tick(), Math.max(1, ms));
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.inFlight) return;
    const quietFor = this.now() - this.options.lastActivityAt();
    if (quietFor < this.options.intervalMs) {
      // Traffic is proof of life: look again when the connection would have been quiet long enough.
      this.schedule(this.options.intervalMs - quietFor);
      return;
    }
    this.inFlight = true;
    try {
      await this.options.ping(this.options.timeoutMs);
    } catch (error) {
      // A ping that fails because we stopped (connection closing) is not a health failure.
      if (this.stopped) return;
      this.stop();
      this.options.onFailure(error);
      return;
    } finally {
      this.inFlight = false;
    }
    if (!this.stopped) this.schedule(this.options.intervalMs);
  }
}
