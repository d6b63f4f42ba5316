import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

/** The folder name Electron derives from package.json's productName; web mode uses the same one. */
export const APP_DIR_NAME = 'Patchbay';

/**
 * The per-user data directory, the same one Electron's `app.getPath('userData')` gives, so the app and
 * web mode share one database: `%APPDATA%\Patchbay`, `~/Library/Application Support/Patchbay`, or
 * `$XDG_CONFIG_HOME/Patchbay` (default `~/.config/Patchbay`). `PATCHBAY_DATA_DIR` overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.PATCHBAY_DATA_DIR) return path.resolve(env.PATCHBAY_DATA_DIR);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_DIR_NAME);
}

/** Scratch space in the data directory: uploads, bundles being unpacked, backup copies. Emptied at every start. */
export const SCRATCH_DIR = 'tmp';

/** Empties the scratch folder: whatever a previous run left there was half-done and is of no use. */
export function clearScratch(dataDir: string): void {
  fs.rmSync(path.join(dataDir, SCRATCH_DIR), { recursive: true, force: true });
}
