/**
 * Electron entry: single-instance lock, the host core, one window, the IPC bridge, and an ordered
 * shutdown on quit. The only other place that imports 'electron' is src-main/electron/.
 */
import { app, BrowserWindow, dialog, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './core/data-dir';
import { createHost, type Host } from './core/host';
import { createFolderPicker } from './electron/folder-picker';
import { bridgeIpc } from './electron/ipc';
import { electronSqliteBinding } from './electron/native-binding';
import { createElectronSecretBox } from './electron/safe-storage-secret-box';
import { createMainWindow } from './electron/window';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appRoot = path.resolve(outDir, '..');

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let host: Host | undefined;

  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  app.whenReady().then(async () => {
    const dataDir = defaultDataDir();
    try {
      const secrets = await createElectronSecretBox(dataDir);
      host = createHost({
        mode: 'electron',
        dataDir,
        appVersion: app.getVersion(),
        sqliteNativeBinding: electronSqliteBinding(appRoot),
        secrets,
        pickFolder: createFolderPicker(),
        // OAuth sign-in happens in the user's own browser (their sessions, password manager), never in our window.
        openExternal: (url) => shell.openExternal(url),
      });
    } catch (error) {
      dialog.showErrorBox('Patchbay cannot start', (error as Error).message);
      app.exit(1);
      return;
    }
    const started = host;
    const window = createMainWindow(outDir);
    const unbridge = bridgeIpc(started, window);
    window.on('closed', unbridge);
    // Servers start after the first paint: the window never waits for them.
    window.once('ready-to-show', () => void started.startServers());
  });

  app.on('window-all-closed', () => app.quit());

  // One ordered shutdown: hold the quit until the host has disposed everything it owns.
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting || !host) return;
    event.preventDefault();
    quitting = true;
    void host.dispose().finally(() => app.quit());
  });
}
