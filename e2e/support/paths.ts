import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in e2e/support/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built web-mode entry (`npx electron-vite build`). */
export const WEB_ENTRY = path.join(REPO_ROOT, 'out', 'main', 'web.js');

/** The version the host reports: package.json's. */
export function appVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version;
}
