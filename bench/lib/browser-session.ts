/**
 * What the renderer benchmarks (chat-ui, resources-ui) share: the built web host (`out/main/web.js`)
 * started on a data directory and stopped with its whole process tree checked gone, and the system
 * Chromium Playwright drives.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { descendants, killRefs, waitGone, type ProcRef } from './procs';
import { REPO } from './servers';

const WEB_ENTRY = path.join(REPO, 'out/main/web.js');
// The same browser and flags as the end-to-end tests.
export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium';

/** What the build is made from: a file here newer than `out/` means the build is stale. */
const BUILD_SOURCES = ['src-main', 'src-preload', 'src-renderer', 'electron.vite.config.ts'].map((p) => path.join(REPO, p));

/**
 * Builds the app if `out/` has no web entry or is older than its sources. `npm run bench` builds
 * first; a scenario run alone (`npx tsx bench/areas.ts --area resources`) would otherwise measure
 * whatever build was left behind, silently.
 */
export function ensureBuilt(): void {
  if (fs.existsSync(WEB_ENTRY) && !changedSince(fs.statSync(WEB_ENTRY).mtimeMs, BUILD_SOURCES)) return;
  const r = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0 || !fs.existsSync(WEB_ENTRY))
    throw new Error(`electron-vite build failed: ${(r.stdout + r.stderr).trim().split('\n').slice(-3).join(' ')}`);
}

/** Whether any file under `paths` (files or directories, walked) was modified after `time` (epoch ms). */
export function changedSince(time: number, paths: readonly string[]): boolean {
  for (const p of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      continue;
    }
    if (!stat.isDirectory()) {
      if (stat.mtimeMs > time) return true;
      continue;
    }
    if (
      changedSince(
        time,
        fs.readdirSync(p).map((name) => path.join(p, name)),
      )
    )
      return true;
  }
  return false;
}

/** Starts the web host on `dataDir` (a free port) and resolves with its tokened URL. */
export async function startWebHost(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [WEB_ENTRY, '--no-open', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`web host printed no URL in 30 s: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Patchbay web mode: (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web host exited (${code}): ${stderr}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { child, url };
}

/** SIGTERM, then SIGKILL for whatever of its tree is still alive after 5 s. Returns processes killed by force. */
export async function stopWebHost(child: ChildProcess): Promise<number> {
  const tree: ProcRef[] = child.pid ? descendants(child.pid) : [];
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000));
    if ((await Promise.race([exited, timer])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  }
  const left = await waitGone(tree, 2000);
  return killRefs(left) + (child.signalCode === 'SIGKILL' ? 1 : 0);
}
