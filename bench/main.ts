/**
 * `npm run bench [-- flags]`: the fleet scenarios (run.ts, which takes every flag) and then the per-area
 * benchmarks (areas.ts, which honours --quick), each in its own process so neither inherits the other's
 * heap or children.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { builtScript } from './lib/as-built';
import { REPO } from './lib/servers';

const args = process.argv.slice(2);
// Each as built, like the host it measures (see lib/as-built.ts).
const run = (script: string, scriptArgs: string[]) =>
  spawnSync(process.execPath, [builtScript(path.join(REPO, 'bench', script)), ...scriptArgs], { stdio: 'inherit' }).status ?? 1;

const fleet = run('run.ts', args);
if (args.includes('--help') || args.includes('-h')) process.exit(fleet);
const areas = args.includes('--only')
  ? 0
  : run(
      'areas.ts',
      args.filter((a) => a === '--quick'),
    );
process.exit(fleet || areas);
