/**
 * Bench scripts run the host as the app ships it: bundled, not through tsx.
 *
 * Why: tsx compiles with esbuild's `keepNames`, which wraps every named function and closure created
 * at run time in `__name(fn, "name")` — an `Object.defineProperty` per closure. The host's hot paths
 * create closures per tool call (the router, the request runner, the log's deferred entries), so under
 * tsx it paid ≈ 5–15 µs per call that the built app (Vite's build, no `keepNames`) never pays, while
 * the SDK arm ran the SDK's own prebuilt `dist`. Measured with `npx tsx` and with this bundle, same
 * box, same run: CPU per call at 32 in flight 82–89 µs vs 65–74 µs.
 *
 * An entry script imports `./lib/as-built-entry` first: under tsx it bundles the script (esbuild,
 * dependencies external, as the app's main build leaves them) into `.cache/bench/`, runs the bundle
 * with the same arguments and exits with its status; in the bundle it does nothing. `builtScript` gives
 * the bundle of a script another process should run (the fleet's workers, the flood samples).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { REPO } from './servers';

/** Two levels below the repository, like `bench/lib/`: `REPO` (servers.ts) resolves the same in a bundle. */
const OUT_DIR = path.join(REPO, '.cache', 'bench');

const built = new Map<string, string>();

/** Bundles `entry` into `outfile` as the app's main build would: ESM for Node, dependencies external. */
export function bundleForNode(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // The contract's path alias (tsconfig.base.json), resolved before `packages: 'external'` could take it for a package.
    alias: { '@contract': path.join(REPO, 'src-preload', 'contract.ts') },
    outfile,
    logLevel: 'error',
  });
}

/** The bundle of `script` (a path under the repository), built once per process. */
export function builtScript(script: string): string {
  const known = built.get(script);
  if (known) return known;
  const outfile = path.join(OUT_DIR, `${path.basename(script, '.ts')}.mjs`);
  bundleForNode(script, outfile);
  built.set(script, outfile);
  return outfile;
}

/** This process's node flags without tsx's loader (the bundle needs none). */
function flagsWithoutTsx(): string[] {
  const flags: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (/^--(import|require|loader)$/.test(argv[i]) && argv[i + 1]?.includes('tsx')) i++;
    else if (!(/^--(import|require|loader)=/.test(argv[i]) && argv[i].includes('tsx'))) flags.push(argv[i]);
  }
  return flags;
}

/**
 * See the module comment: the entry script (`process.argv[1]`), when it is TypeScript run by tsx, is
 * bundled and run as a bundle with the same node flags (tsx's loader left out) and arguments; this
 * process then exits with the bundle's status. A bundle (or a plain script) goes on.
 */
export function asBuilt(): void {
  const script = process.argv[1] ?? '';
  if (!script.endsWith('.ts')) return;
  const bundle = builtScript(path.resolve(script));
  const run = spawnSync(process.execPath, [...flagsWithoutTsx(), bundle, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
