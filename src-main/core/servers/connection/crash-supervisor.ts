/**
 * Crash and restart supervision of one connection: a ready session that died (or an automatic
 * restart that failed to start) becomes the `crashed` state the UI shows — the reason, exit status
 * and stderr tail, plus the restart scheduled or "gave up" — and the restart is scheduled with the
 * backoff and attempt count of a `RestartPolicy`. The connection owns its sessions and launches;
 * this owns the restart timer.
 */
import type { CrashInfo } from './request-errors';
import { RestartPolicy, type RestartPolicyOptions } from './restart-policy';
import { formatWait } from './server-state';
import { refusalDetail, type TemporaryRefusal } from '../transport/temporary-refusal';
import type { ServerSession } from './server-session';
import type { ServerState } from './server-state';

/** What the supervisor needs of its connection. */
export interface SupervisorHooks {
  now: () => number;
  /** Publishes a state (the connection's `onStateChange`). */
  setState: (state: ServerState) => void;
  /** The connection's launch generation: a restart scheduled by an older one is dropped. */
  generation: () => number;
  /** Shuts a dead session down (process group and all) and forgets its process record. */
  endSession: (session: ServerSession) => Promise<unknown>;
  /** Starts the server again; `attempt` is 2 for the first automatic restart. */
  relaunch: (attempt: number) => void;
}

/** What a crash of this session looks like: `reason` plus the exit status and last stderr lines. */
export function crashReport(session: ServerSession, reason: string): CrashInfo {
  return { reason, exit: session.transport.closeReport?.exit, stderrTail: session.transport.stderr?.lines(10) ?? [] };
}

/** Reports crashes and schedules automatic restarts. See the module comment. */
export class CrashSupervisor {
  private readonly policy: RestartPolicy;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(
    options: RestartPolicyOptions | undefined,
    private readonly hooks: SupervisorHooks,
  ) {
    this.policy = new RestartPolicy(options);
  }

  /** The user started or stopped the server: cancel a scheduled restart and forget past crashes. */
  reset(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.policy.reset();
  }

  /** The server became ready at `now` (a run that stays up long enough resets the count). */
  noteReady(now: number): void {
    this.policy.noteReady(now);
  }

  /**
   * Crashed (`session`: the dead one, still to be shut down), or an automatic restart failed (no
   * session): report it, then schedule the next restart once the old session is gone, or give up.
   */
  onFailure({ reason, exit, stderrTail }: CrashInfo, session: ServerSession | undefined): void {
    const now = this.hooks.now();
    const decision = this.policy.onFailure(now);
    const { maxAttempts, enabled } = this.policy.options;
    const at = decision ? now + decision.delayMs : 0;
    this.hooks.setState({
      status: 'crashed',
      since: now,
      reason: decision || !enabled ? reason : `${reason} Gave up after ${maxAttempts} automatic restarts.`,
      exit,
      stderrTail,
      ...(decision ? { restart: { attempt: decision.attempt, maxAttempts, at } } : {}),
    });
    this.schedule(decision, at, session);
  }

  /**
   * A start was refused for now (HTTP 429, 503…): not a crash and not a broken server. While retries
   * are allowed, the server stays `starting`, saying it was asked to wait and when the next try is
   * (never sooner than its Retry-After); otherwise it is an error that says the same and stops.
   */
  onRefusal({ reason, stderrTail }: CrashInfo, refusal: TemporaryRefusal): void {
    const now = this.hooks.now();
    const decision = this.policy.onFailure(now, refusal.retryAfterMs);
    if (!decision) {
      const { enabled, maxAttempts } = this.policy.options;
      const after = enabled
        ? `Gave up after ${maxAttempts} tries: press Start to try again.`
        : 'Automatic retries are off: press Start to try again.';
      this.hooks.setState({ status: 'error', since: now, reason: `${reason} ${after}`, stderrTail });
      return;
    }
    const at = now + decision.delayMs;
    this.hooks.setState({
      status: 'starting',
      since: now,
      detail: refusalDetail(refusal, formatWait(decision.delayMs)),
      attempt: decision.attempt + 1,
      retry: { attempt: decision.attempt, maxAttempts: this.policy.options.maxAttempts, at },
    });
    this.schedule(decision, at, undefined);
  }

  /** Relaunches at `at` (once `session`, if any, is shut down), unless the connection moved on meanwhile. */
  private schedule(decision: { attempt: number } | undefined, at: number, session: ServerSession | undefined): void {
    const generation = this.hooks.generation();
    void (session ? this.hooks.endSession(session) : Promise.resolve()).then(() => {
      if (!decision || generation !== this.hooks.generation()) return;
      this.restartTimer = setTimeout(() => this.hooks.relaunch(decision.attempt + 1), Math.max(0, at - this.hooks.now()));
    });
  }
}
