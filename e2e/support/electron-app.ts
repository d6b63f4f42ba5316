/**
 * Finding and launching the Electron binary without `require('electron')` (which, with no binary,
 * tries to download one). The electron package writes `path.txt` once its binary is in `dist/`.
 */
import { _electron, type ElectronApplication } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths';

export interface ElectronBinary {
  usable: boolean;
  /** The executable, when found. */
  executablePath?: string;
  /** Why the app cannot be run here, when not usable. */
  reason?: string;
}

/** Whether the Electron app can be launched here, and if not, why (never downloads anything). */
export function findElectronBinary(): ElectronBinary {
  const packageDir = path.join(REPO_ROOT, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    return { usable: false, reason: `${path.relative(REPO_ROOT, pathFile)} is missing (the Electron binary was never downloaded)` };
  }
  const relative = fs.readFileSync(pathFile, 'utf8').trim();
  const executablePath = path.join(packageDir, 'dist', relative);
  if (!relative || !fs.existsSync(executablePath)) {
    return { usable: false, reason: `${path.relative(REPO_ROOT, executablePath)} does not exist` };
  }
  const sqlite = path.join(REPO_ROOT, '.electron-native', 'better_sqlite3.node');
  if (!fs.existsSync(sqlite)) {
    return {
      usable: false,
      executablePath,
      reason: `${path.relative(REPO_ROOT, sqlite)} is missing: the Electron-ABI build of better-sqlite3 (scripts/electron-native.mjs, run by \`npm start\`)`,
    };
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { usable: false, executablePath, reason: 'no DISPLAY or WAYLAND_DISPLAY: Electron needs a display (run under xvfb-run)' };
  }
  return { usable: true, executablePath };
}

/** Launches the built app (`out/main/index.js` via package.json "main") with its own data directory. */
export async function launchElectronApp(binary: ElectronBinary, dataDir: string): Promise<ElectronApplication> {
  if (!binary.executablePath) throw new Error(`No Electron binary: ${binary.reason}`);
  const args = ['.'];
  // Chromium refuses to run as root with its sandbox on (the window's renderer sandbox is separate).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return _electron.launch({
    executablePath: binary.executablePath,
    args,
    cwd: REPO_ROOT,
    env: { ...process.env, PATCHBAY_DATA_DIR: dataDir } as Record<string, string>,
    timeout: 60_000,
  });
}
