/**
 * Finding the packaged app `npm run dist` (or `npm run dist -- --dir`) left in release/, and whether it
 * can run here. Never builds or downloads anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths';

export interface PackagedApp {
  usable: boolean;
  executablePath?: string;
  reason?: string;
}

/** The unpacked app's executable per platform, as electron-builder names its folders. */
function candidates(): string[] {
  const release = path.join(REPO_ROOT, 'release');
  if (process.platform === 'darwin') {
    return ['mac-universal', 'mac-arm64', 'mac'].map((dir) => path.join(release, dir, 'Patchbay.app', 'Contents', 'MacOS', 'Patchbay'));
  }
  if (process.platform === 'win32') return [path.join(release, 'win-unpacked', 'Patchbay.exe')];
  return [path.join(release, 'linux-unpacked', 'patchbay'), path.join(release, 'linux-arm64-unpacked', 'patchbay')];
}

export function findPackagedApp(): PackagedApp {
  const executablePath = candidates().find((file) => fs.existsSync(file));
  if (!executablePath) {
    return {
      usable: false,
      reason:
        'no packaged app in release/ (build one with `npm run dist -- --dir`; it needs the Electron binary, which cannot be downloaded here)',
    };
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { usable: false, executablePath, reason: 'no DISPLAY or WAYLAND_DISPLAY: the app needs a display (run under xvfb-run)' };
  }
  return { usable: true, executablePath };
}

/** Arguments every launch needs here: Chromium refuses to run as root with its sandbox on. */
export function rootArgs(): string[] {
  return process.getuid?.() === 0 ? ['--no-sandbox'] : [];
}
