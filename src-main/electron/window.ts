import { BrowserWindow, session, shell } from 'electron';
import path from 'node:path';

/**
 * Creates the one app window with the strictest settings that still run the renderer: isolated,
 * sandboxed, no Node in the page, no navigation away, no new windows (http(s) links open in the
 * system browser instead).
 */
export function createMainWindow(outDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    title: 'Patchbay',
    webPreferences: {
      preload: path.join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => window.show());

  const rendererUrl = process.env.ELECTRON_RENDERER_URL;
  window.webContents.on('will-navigate', (event, url) => {
    if (rendererUrl && url.startsWith(rendererUrl)) return;
    event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // The renderer never needs camera, microphone, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  if (rendererUrl) void window.loadURL(rendererUrl);
  else void window.loadFile(path.join(outDir, 'renderer', 'index.html'));
  return window;
}
