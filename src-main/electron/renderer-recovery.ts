import { dialog, type BrowserWindow } from 'electron';
import type { Host } from '../core/host';

/** More crashes than this within the window below stop the automatic reloads (a renderer that crashes at once would loop). */
const MAX_RELOADS = 3;
const RELOAD_WINDOW_MS = 60_000;

/**
 * A renderer that crashes (or is killed, or runs out of memory) is reloaded; the host and its servers
 * live in the main process and never noticed. The user is told through the next snapshot. If it keeps
 * crashing, the user chooses: try again or quit.
 */
export function recoverRendererCrashes(window: BrowserWindow, host: Host): void {
  const recent: number[] = [];
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    const now = Date.now();
    host.app.recordWindowCrash({ at: new Date(now).toISOString(), reason: details.reason, exitCode: details.exitCode });
    recent.push(now);
    while (recent.length > 0 && now - recent[0] > RELOAD_WINDOW_MS) recent.shift();
    if (recent.length <= MAX_RELOADS) {
      window.webContents.reload();
      return;
    }
    const choice = dialog.showMessageBoxSync(window, {
      type: 'error',
      title: 'Patchbay',
      message: 'The Patchbay window keeps crashing.',
      detail: `It crashed ${recent.length} times in the last minute (${details.reason}). Your servers are still running. The app log (Help › Show logs) has the details.`,
      buttons: ['Try again', 'Quit Patchbay'],
      defaultId: 0,
      cancelId: 0,
    });
    recent.length = 0;
    if (choice === 0) window.webContents.reload();
    else window.close();
  });
  window.webContents.on('unresponsive', () => host.app.log.write('warning', 'window', 'The window stopped responding'));
  window.webContents.on('responsive', () => host.app.log.write('info', 'window', 'The window responds again'));
}
