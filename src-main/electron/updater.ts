import { app } from 'electron';
import electronUpdater, { type AppUpdater } from 'electron-updater';
import fs from 'node:fs';
import path from 'node:path';
import { parseUpdateFeed, type Settings, type UpdateState } from '@contract';
import type { Host } from '../core/host';
import {
  CHECK_INTERVAL_MS,
  describeUpdateError,
  FIRST_CHECK_DELAY_MS,
  mayCheck,
  nextUpdateState,
  type UpdateEvent,
} from '../desktop/update-state';

export interface UpdaterDeps {
  host: Host;
  settings: Settings;
  /** The app's one orderly shutdown (servers stopped, database closed), run before an update restarts it. */
  shutdown(): Promise<void>;
}

/** Why this copy of Patchbay cannot update itself, or undefined when it can. */
function unsupportedReason(): string | undefined {
  if (!app.isPackaged) return 'This is a development build: updates work in the installed app.';
  if (process.platform === 'linux' && !process.env.APPIMAGE && !fs.existsSync(path.join(process.resourcesPath, 'package-type'))) {
    return 'This copy was not installed from the AppImage or a package, so it cannot replace itself.';
  }
  return undefined;
}

/**
 * Updates with electron-updater, only once the user turned them on: a check at start (after the
 * window and servers are up) and daily, downloads in the background, and installation only with the
 * user's consent — now (after the same orderly shutdown as quitting) or when Patchbay quits.
 * Signatures are the platform's business (Authenticode, Gatekeeper). Every failure becomes an `error`
 * state and a line in the app log; none blocks anything.
 */
export function startUpdater({ host, settings: initial, shutdown }: UpdaterDeps): { dispose(): void } {
  const log = host.app.log;
  let settings = initial;
  let updater: AppUpdater | undefined;
  let firstCheck: NodeJS.Timeout | undefined;
  let daily: NodeJS.Timeout | undefined;
  const reason = unsupportedReason();

  const apply = (event: UpdateEvent) => {
    const next = nextUpdateState(host.app.updateState, event);
    if (next !== host.app.updateState) host.app.setUpdateState(next);
  };
  const fail = (error: unknown) => {
    log.error('updater', 'Update check or download failed', error);
    apply({ type: 'error', message: describeUpdateError(error), at: new Date().toISOString() });
  };

  /** electron-updater's instance, made on first use only (its getter picks the platform's updater). */
  const instance = (): AppUpdater => {
    if (updater) return updater;
    const made = electronUpdater.autoUpdater;
    made.autoDownload = true;
    made.autoInstallOnAppQuit = false; // only with the user's consent (installUpdate)
    made.logger = {
      info: (message?: unknown) => log.write('info', 'updater', String(message)),
      warn: (message?: unknown) => log.write('warning', 'updater', String(message)),
      error: (message?: unknown) => log.write('error', 'updater', String(message)),
      debug: () => undefined,
    };
    made.on('checking-for-update', () => apply({ type: 'checking' }));
    made.on('update-not-available', () => apply({ type: 'not-available', at: new Date().toISOString() }));
    made.on('update-available', (info) => apply({ type: 'available', version: info.version }));
    made.on('download-progress', (progress) => apply({ type: 'progress', percent: progress.percent }));
    made.on('update-downloaded', (info) => apply({ type: 'downloaded', version: info.version }));
    made.on('error', fail);
    updater = made;
    return made;
  };

  /** Points electron-updater at the feed the settings name; false (with the state saying why) when there is none. */
  const useFeed = (target: AppUpdater): boolean => {
    const feed = parseUpdateFeed(settings.updateFeed);
    if (feed?.provider === 'github') target.setFeedURL({ provider: 'github', owner: feed.owner, repo: feed.repo });
    else if (feed?.provider === 'generic') target.setFeedURL({ provider: 'generic', url: feed.url });
    else if (!fs.existsSync(path.join(process.resourcesPath, 'app-update.yml'))) {
      apply({
        type: 'error',
        message: 'This build has no update feed of its own: set one in Settings (GitHub owner/repo or an https URL).',
        at: new Date().toISOString(),
      });
      return false;
    }
    return true;
  };

  const check = () => {
    if (reason || !settings.updatesEnabled || !mayCheck(host.app.updateState)) return;
    try {
      const target = instance();
      if (!useFeed(target)) return;
      target.checkForUpdates().catch(fail);
    } catch (error) {
      fail(error);
    }
  };

  const schedule = () => {
    clearTimeout(firstCheck);
    clearInterval(daily);
    if (reason || !settings.updatesEnabled) return;
    firstCheck = setTimeout(check, FIRST_CHECK_DELAY_MS);
    daily = setInterval(check, CHECK_INTERVAL_MS);
  };

  host.app.setUpdateState(reason ? { status: 'unsupported', reason } : settings.updatesEnabled ? { status: 'idle' } : { status: 'off' });
  host.app.attachUpdater({
    check,
    install: (when) => {
      const state: UpdateState = host.app.updateState;
      if (state.status !== 'ready' || !updater) return;
      if (when === 'on-quit') {
        updater.autoInstallOnAppQuit = true;
        apply({ type: 'install-on-quit' });
        return;
      }
      log.write('info', 'updater', `Restarting to install ${state.version}`);
      const target = updater;
      void shutdown().then(() => target.quitAndInstall(false, true), fail);
    },
  });
  const unsubscribe = host.events.subscribe((event) => {
    if (event.name !== 'settingsChanged') return;
    const before = settings;
    settings = event.payload;
    if (before.updatesEnabled !== settings.updatesEnabled) {
      apply({ type: settings.updatesEnabled ? 'turned-on' : 'turned-off' });
      if (!settings.updatesEnabled && updater) updater.autoInstallOnAppQuit = false;
      schedule();
    } else if (before.updateFeed !== settings.updateFeed && settings.updatesEnabled && host.app.updateState.status === 'error') {
      // A corrected feed is tried soon, not tomorrow.
      schedule();
    }
  });
  schedule();

  return {
    dispose() {
      clearTimeout(firstCheck);
      clearInterval(daily);
      unsubscribe();
    },
  };
}
