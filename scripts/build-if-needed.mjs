import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['src-main', 'src-preload', 'src-renderer', 'resources', 'electron.vite.config.ts', 'package.json'];
const STAMP = path.join('out', '.build-stamp');

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Runs `electron-vite build` when out/ is missing or older than any source; returns false on failure. */
export function buildIfNeeded(root) {
  const stamp = path.join(root, STAMP);
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (built > sources) return true;
  console.log('patchbay: building…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) return false;
  fs.writeFileSync(stamp, new Date().toISOString());
  return true;
}
