/**
 * The web host metric 2 runs: `out/main/web.js` from `npx electron-vite build` (what `npm run web`
 * runs). If that build does not load (it is smoke-tested with `--help`), the same entry
 * (src-main/web/cli.ts) is bundled with esbuild into a temporary directory laid out like out/
 * (renderer and node_modules linked), and the reason is reported. Either way a seeder (seed-main.ts)
 * is bundled from the same snapshot of the tree, so configs are written by the code that reads them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleForNode } from './as-built';
import { REPO } from './servers';

export const OUT_WEB_ENTRY = path.join(REPO, 'out/main/web.js');

export interface WebHost {
  entry: string;
  /** `node seedEntry DATA_DIR SPECS_JSON` writes enabled server configs. */
  seedEntry: string;
  note?: string;
  cleanup(): void;
}

function loads(entry: string): string | undefined {
  const r = spawnSync(process.execPath, [entry, '--help'], { encoding: 'utf8', timeout: 20_000 });
  if (r.status === 0) return undefined;
  const lines = `${r.stderr}`.split('\n').filter((l) => /Error/.test(l));
  return lines[0]?.trim() ?? `exit ${r.status}`;
}

export async function prepareWebHost(build: boolean): Promise<WebHost | { error: string }> {
  let buildProblem: string | undefined;
  if (build) {
    const b = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO, encoding: 'utf8' });
    if (b.status !== 0) buildProblem = `electron-vite build failed: ${(b.stdout + b.stderr).trim().split('\n').slice(-3).join(' ')}`;
  }
  const broken = fs.existsSync(OUT_WEB_ENTRY) ? loads(OUT_WEB_ENTRY) : 'missing';

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-web-'));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.mkdirSync(path.join(dir, 'main'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    fs.symlinkSync(path.join(REPO, 'out/renderer'), path.join(dir, 'renderer'));
    const seedEntry = path.join(dir, 'main/seed.mjs');
    bundleForNode(path.join(REPO, 'bench/lib/seed-main.ts'), seedEntry);
    if (!buildProblem && !broken) return { entry: OUT_WEB_ENTRY, seedEntry, cleanup };
    const entry = path.join(dir, 'main/web.mjs');
    bundleForNode(path.join(REPO, 'src-main/web/cli.ts'), entry);
    const stillBroken = loads(entry);
    if (stillBroken) throw new Error(stillBroken);
    const why = buildProblem ?? `out/main/web.js does not load (${broken})`;
    return { entry, seedEntry, note: `${why}; metric 2 used an esbuild bundle of src-main/web/cli.ts instead`, cleanup };
  } catch (error) {
    cleanup();
    return { error: `${buildProblem ?? `out/main/web.js: ${broken}`}; bundling failed: ${(error as Error).message}` };
  }
}
