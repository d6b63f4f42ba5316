/**
 * A 2025-era remote server that forgot our session (it restarted, or expired it) answers HTTP 404
 * (or, on older SDKs, 400 "no valid session"), and the remote transport closes with the reason
 * `session-expired`. The spec's answer is a new `initialize`, not a crash: no restart budget is
 * spent, the card says "session expired, reconnecting" while it happens, and a request that failed
 * on the forgotten session is sent once more on the new one (the server never processed it).
 */
import type { ServerSession } from './server-session';
import type { ServerState } from './server-state';

/** Shown before the start detail while re-initializing. */
const REINITIALIZING = 'session expired, reconnecting';

/** What the session-expiry handling needs of its connection. */
export interface SessionExpiryHooks {
  /** The connection's session now (after a re-initialize: the new one). */
  current: () => ServerSession | undefined;
  /** The start in progress (the re-initialize), else the current state. */
  settled: () => Promise<ServerState>;
  /** Forgets the expired session and shuts it down. */
  drop: (session: ServerSession) => void;
  /** Starts the server again as attempt 1. */
  relaunch: () => void;
}

/** True when the server ended this session because it no longer knows it. */
export function isSessionExpired(session: ServerSession | undefined): boolean {
  return session?.transport.closeReport?.reason === 'session-expired';
}

/** Re-initializes after an expired session, and retries the requests it failed. See the module comment. */
export class SessionExpiry {
  private note: string | undefined;

  constructor(private readonly hooks: SessionExpiryHooks) {}

  /**
   * Sends on `session`; when that failed because the server forgot the session (and the caller did
   * not abort), waits for the re-initialize and, if the server is ready again, sends once more.
   */
  async retry<T>(
    session: ServerSession | undefined,
    send: (session: ServerSession | undefined) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    try {
      return await send(session);
    } catch (error) {
      if (!isSessionExpired(session) || signal?.aborted) throw error;
      const state = await this.hooks.settled();
      if (state.status !== 'ready') throw error;
      return send(this.hooks.current());
    }
  }

  /** A ready session closed: when the server forgot it, re-initializes and returns true (not a crash). */
  recover(session: ServerSession): boolean {
    if (!isSessionExpired(session)) return false;
    session.markCrashed({ reason: session.closeReason(), exit: undefined, stderrTail: [] });
    this.hooks.drop(session);
    this.note = REINITIALIZING;
    this.hooks.relaunch();
    return true;
  }

  /** The start detail to show: prefixed with the re-initialize note while one runs. */
  startDetail(detail: string): string {
    return this.note ? `${this.note}: ${detail}` : detail;
  }

  /** The start ended (ready, or failed): the note no longer applies. */
  startEnded(): void {
    this.note = undefined;
  }
}
