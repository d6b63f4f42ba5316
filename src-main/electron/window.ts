import { BrowserWindow, session, shell, type BrowserWindowConstructorOptions } from 'electron';
import path from 'node:path';
import { APP_FILES } from '../desktop/runtime-files';

/** The origins our window's page has: the built renderer (`file://`), or the dev server's. */
export function rendererOrigins(): string[] {
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  return ['file://', ...(devUrl ? [new URL(devUrl).origin] : [])];
}

/**
 * Creates the one app window with the strictest settings that still run the renderer: isolated,
 * sandboxed, no Node in the page, no navigation away, no new windows (http(s) links open in the
 * system browser instead). `appRoot` holds `out/` (the repository, or app.asar when installed);
 * `bounds` are the remembered size and position. Frames may only ever show MCP Apps' origin
 * (`appOrigin`, the host's sandbox listener) and the documents an app is loaded as.
 */
export function createMainWindow(
  appRoot: string,
  bounds: BrowserWindowConstructorOptions,
  icon: string,
  appOrigin?: string,
): BrowserWindow {
  const window = new BrowserWindow({
    ...bounds,
    show: false,
    title: 'Patchbay',
    // Linux and Windows show it in the task bar (macOS takes the bundle's icon).
    ...(process.platform === 'darwin' ? {} : { icon }),
    webPreferences: {
      preload: path.join(appRoot, APP_FILES.preload),
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
  // An app's frame (or the app inside it) may not wander off to another site inside our window.
  window.webContents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return;
    const url = event.url;
    if (url === 'about:srcdoc' || url === 'about:blank' || (appOrigin && url.startsWith(`${appOrigin}/`))) return;
    event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // The renderer never needs camera, microphone, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler((_wc, permission) => permission !== 'media');
  // Nothing in the window uses WebRTC; an app's frame has it taken away (mcp-apps/app-bootstrap.ts),
  // and without a proxy this policy keeps any WebRTC UDP from leaving the window at all.
  window.webContents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');

  if (rendererUrl) void window.loadURL(rendererUrl);
  else void window.loadFile(path.join(appRoot, APP_FILES.renderer));
  return window;
}
