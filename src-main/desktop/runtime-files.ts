/**
 * Every file the main process loads at run time besides its own bundle, and where each one is in a
 * development run (relative to the repository) and in the installed app (relative to
 * `process.resourcesPath`). The Electron glue builds its paths from here, and a test checks that
 * electron-builder.config.mjs ships each of them — so a file added here and forgotten there fails a
 * test instead of an installed app.
 */
import path from 'node:path';

/** Files inside the app (app.asar when packaged), relative to the app's root. */
export const APP_FILES = {
  /** package.json "main". */
  main: 'out/main/index.js',
  /** Web mode's entry, shipped too: the same build serves a browser. */
  web: 'out/main/web.js',
  preload: 'out/preload/index.cjs',
  renderer: 'out/renderer/index.html',
} as const;

/** Native code loaded from the unpacked side of the archive (never from inside app.asar). */
export const UNPACKED_FILES = {
  sqlite: 'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
} as const;

/** Files copied beside the archive (electron-builder `extraResources`): `from` in the repository, `to` under resources/. */
export const EXTRA_RESOURCES = {
  windowIcon: { from: 'resources/icons/png/512x512.png', to: 'icons/512x512.png' },
} as const;

export interface RuntimeLocation {
  /** True in the installed app (Electron's `app.isPackaged`). */
  isPackaged: boolean;
  /** Electron's `process.resourcesPath`. */
  resourcesPath: string;
  /** The repository root in a development run. */
  appRoot: string;
}

/** The window icon (Linux and Windows show it in the task bar; macOS uses the bundle's). */
export function windowIconPath(where: RuntimeLocation): string {
  const icon = EXTRA_RESOURCES.windowIcon;
  return where.isPackaged ? path.join(where.resourcesPath, icon.to) : path.join(where.appRoot, icon.from);
}

/** better-sqlite3 built for the packaged Electron, as the builder's after-pack step leaves it (see scripts/dist/after-pack.mjs). */
export function packagedSqliteBinding(resourcesPath: string): string {
  return path.join(resourcesPath, 'app.asar.unpacked', UNPACKED_FILES.sqlite);
}
