import {
  MAX_PENDING_OPEN_REQUESTS,
  type appMethods,
  type AppSnapshot,
  type HandlersFor,
  type HostMode,
  type OpenRequest,
  type UpdateState,
  type WindowRecovery,
} from '@contract';
import type { HostEventBus } from '../events';
import type { AppLog } from '../logs/app-log';

/** What the desktop app's updater does when the user asks (see src-main/electron/updater.ts). */
export interface UpdaterPort {
  /** Checks the feed now; failures arrive as an `error` state, never as a rejection. */
  check(): void;
  /** Installs the downloaded update: restart now, or when Patchbay quits. */
  install(when: 'now' | 'on-quit'): void;
}

export interface AppAreaDeps {
  mode: HostMode;
  events: HostEventBus;
  log: AppLog;
}

/** Before the desktop glue attaches its updater: in web mode for good, in the app for a moment. */
const WEB_UPDATES: UpdateState = {
  status: 'unsupported',
  reason: 'Updates are part of the desktop app; web mode runs the copy you started.',
};
const NO_UPDATER: UpdateState = { status: 'unsupported', reason: 'The updater has not started.' };

/**
 * The app's own state in the host: open requests the operating system handed over (kept until the
 * user dismisses them, so one that arrives before the window is ready is not lost), the updater's
 * state, and a window crash to tell the user about. The Electron glue feeds it; the contract reads it.
 */
export class AppArea {
  readonly name = 'app';
  private readonly pending: OpenRequest[] = [];
  private update: UpdateState;
  private recovery: WindowRecovery | null = null;
  private updater: UpdaterPort | undefined;

  constructor(private readonly deps: AppAreaDeps) {
    this.update = deps.mode === 'web' ? WEB_UPDATES : NO_UPDATER;
  }

  get log(): AppLog {
    return this.deps.log;
  }

  /** Hands a request to the renderer (and keeps it until dismissed). Nothing is opened or installed here. */
  receiveOpenRequest(request: OpenRequest): void {
    this.pending.push(request);
    if (this.pending.length > MAX_PENDING_OPEN_REQUESTS) {
      const [dropped] = this.pending.splice(0, 1);
      this.deps.events.emit('openRequestDismissed', { id: dropped.id });
    }
    this.deps.events.emit('openRequestReceived', request);
  }

  /** A pending open request by id (a bundle to install is opened from its path). */
  openRequest(id: string): OpenRequest | undefined {
    return this.pending.find((request) => request.id === id);
  }

  /** The desktop glue's updater; from now on the update methods reach it. */
  attachUpdater(updater: UpdaterPort): void {
    this.updater = updater;
  }

  setUpdateState(state: UpdateState): void {
    this.update = state;
    this.deps.events.emit('updateStateChanged', state);
  }

  get updateState(): UpdateState {
    return this.update;
  }

  /** The window's renderer ended and was reloaded: the next snapshot tells the user. */
  recordWindowCrash(recovery: WindowRecovery): void {
    this.recovery = recovery;
    this.deps.events.emit('windowRecoveryChanged', recovery);
  }

  snapshot(): { app: AppSnapshot } {
    return { app: { openRequests: [...this.pending], update: this.update, windowRecovery: this.recovery } };
  }

  get handlers(): HandlersFor<typeof appMethods> {
    return {
      dismissOpenRequest: async ({ id }) => {
        const index = this.pending.findIndex((request) => request.id === id);
        if (index < 0) return; // already gone (dismissed in another window, or dropped): nothing to do
        this.pending.splice(index, 1);
        this.deps.events.emit('openRequestDismissed', { id });
      },
      checkForUpdates: async () => {
        this.updater?.check();
        return this.update;
      },
      installUpdate: async ({ when }) => {
        if (this.update.status === 'ready') this.updater?.install(when);
        return this.update;
      },
      dismissWindowRecovery: async () => {
        if (!this.recovery) return;
        this.recovery = null;
        this.deps.events.emit('windowRecoveryChanged', null);
      },
    };
  }
}

/** The app area (window requests, updates, the app's own handlers), made like every other area. */
export function createAppArea(deps: AppAreaDeps): AppArea {
  return new AppArea(deps);
}
