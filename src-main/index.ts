/**
 * Electron entry: one instance per data directory (a second launch hands its `.mcpb` files and
 * `patchbay://` links over and focuses the window), the host core, the window (where it was left),
 * the native menu, the IPC bridge, updates, and one orderly shutdown however the app quits. The only
 * other place that imports 'electron' is src-main/electron/.
 */
import { app, BrowserWindow, dialog, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './core/data-dir';
import { createHost, type Host } from './core/host';
import { handoverFor, openTargetsFromArgv, targetsFromSecondInstance } from './desktop/open-request';
import { windowIconPath } from './desktop/runtime-files';
import { WindowStateStore } from './desktop/window-state';
import { installAppMenu } from './electron/app-menu';
import { createFolderPicker } from './electron/folder-picker';
import { bridgeIpc } from './electron/ipc';
import { electronSqliteBinding } from './electron/native-binding';
import { OpenRequestRouter } from './electron/open-requests';
import { registerProtocolClient } from './electron/protocol';
import { recoverRendererCrashes } from './electron/renderer-recovery';
import { createElectronSecretBox } from './electron/safe-storage-secret-box';
import { startUpdater } from './electron/updater';
import { createMainWindow, rendererOrigins } from './electron/window';
import { keepWindowState, rememberedWindowOptions } from './electron/window-state-keeper';

/** The app's root: the repository in a development run, app.asar in the installed app (this file is out/main/index.js). */
const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const where = { isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appRoot };
/** Leading arguments that are not the user's: the executable (and, in a development run, the app folder). */
const skip = app.isPackaged ? 1 : 2;

const dataDir = defaultDataDir();
// Chromium's profile and the single-instance lock follow the data directory, so two Patchbays on two
// data directories (tests, PATCHBAY_DATA_DIR) never take each other for a second launch.
app.setPath('userData', dataDir);

const opens = new OpenRequestRouter();
let host: Host | undefined;
let window: BrowserWindow | undefined;

function focusWindow(): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

// macOS sends files and links as events, possibly before "ready": listen at once.
opens.listen(focusWindow);

if (!app.requestSingleInstanceLock(handoverFor(process.argv, { cwd: process.cwd(), skip }))) {
  // The first instance got our files and links with the lock request; nothing left to do here.
  app.quit();
} else {
  opens.deliver(openTargetsFromArgv(process.argv, { cwd: process.cwd(), skip }), 'launch');

  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    opens.deliver(targetsFromSecondInstance(argv, workingDirectory, additionalData, skip), 'second-instance');
    focusWindow();
  });

  // Errors of the main process go to the app log (written at once: the process may end next).
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    host?.app.log.error('main', origin === 'unhandledRejection' ? 'Unhandled rejection' : 'Uncaught exception', error);
    host?.app.log.flushSync();
  });
  process.on('unhandledRejection', (reason) => host?.app.log.error('main', 'Unhandled rejection', reason));

  /** The one orderly shutdown — from the menu, the dock, the window, a signal or an update: servers stopped (with everything they spawned), database closed. */
  let stopping: Promise<void> | undefined;
  let stopped = false;
  const shutdown = (): Promise<void> =>
    (stopping ??= (host ? host.dispose() : Promise.resolve())
      .catch((error) => console.error('[patchbay] shutdown failed:', error))
      .then(() => {
        stopped = true;
      }));

  app.whenReady().then(async () => {
    try {
      const secrets = await createElectronSecretBox(dataDir);
      host = createHost({
        mode: 'electron',
        dataDir,
        appVersion: app.getVersion(),
        sqliteNativeBinding: electronSqliteBinding(where),
        secrets,
        pickFolder: createFolderPicker(),
        // OAuth sign-in happens in the user's own browser (their sessions, password manager), never in our window.
        openExternal: (url) => shell.openExternal(url),
        // Finishing a restored backup: the orderly quit (servers stopped, database closed), then a new start.
        relaunch: () => {
          app.relaunch();
          app.quit();
        },
      });
    } catch (error) {
      dialog.showErrorBox('Patchbay cannot start', (error as Error).message);
      app.exit(1);
      return;
    }
    const started = host;
    // MCP Apps: shown on the host's app origin (a loopback listener); only our window's page may frame it.
    started.appFrames.setParentOrigins(rendererOrigins());
    await started.appFrames.start();
    registerProtocolClient((text) => started.app.log.write('info', 'app', text));
    installAppMenu(started);
    opens.attach(started);

    const windowState = new WindowStateStore(dataDir);
    const remembered = rememberedWindowOptions(windowState);
    const opened = createMainWindow(appRoot, remembered.options, windowIconPath(where), started.appFrames.origin);
    window = opened;
    opened.once('ready-to-show', () => {
      if (remembered.maximized) opened.maximize();
      if (remembered.fullScreen) opened.setFullScreen(true);
    });
    keepWindowState(opened, windowState, (error) => started.app.log.error('window', 'Could not save the window state', error));
    recoverRendererCrashes(opened, started);
    const unbridge = bridgeIpc(started, opened);
    opened.on('closed', () => {
      unbridge();
      window = undefined;
    });
    // Servers start after the first paint: the window never waits for them.
    opened.once('ready-to-show', () => void started.startServers());

    const { settings } = await started.handlers.getSnapshot(undefined);
    const updater = startUpdater({ host: started, settings, shutdown });
    app.once('will-quit', () => updater.dispose());
  });

  app.on('window-all-closed', () => app.quit());

  // Hold every quit until the host has disposed everything it owns, then quit for real.
  app.on('before-quit', (event) => {
    if (!host || stopped) return;
    event.preventDefault();
    void shutdown().then(() => app.quit());
  });
  // A logout or `kill` ends the app the same orderly way.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => app.quit());
}
