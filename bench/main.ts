/**
 * `npm run bench [-- flags]`: the fleet scenarios (run.ts, which takes every flag) and then the per-area
 * benchmarks (areas.ts, which honours --quick), each in its own process so neither inherits the other's
 * heap or children.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO } from './lib/servers';

const args = process.argv.slice(2);
const tsx = (script: string, scriptArgs: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench', script), ...scriptArgs], { stdio: 'inherit' }).status ?? 1;

const fleet = tsx('run.ts', args);
if (args.includes('--help') || args.includes('-h')) process.exit(fleet);
const areas = args.includes('--only')
  ? 0
  : tsx(
      'areas.ts',
      args.filter((a) => a === '--quick'),
    );
process.exit(fleet || areas);
