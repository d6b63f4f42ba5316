/**
 * One benchmark sample in a fresh process (started by bench/run.ts with --expose-gc, as built: see
 * lib/as-built.ts). Usage: node --expose-gc .cache/bench/worker.mjs '<task json>' (or `npx tsx
 * --expose-gc bench/worker.ts …`, which runs that bundle).
 */
import './lib/as-built-entry';
import { runBig } from './scenarios/big';
import { runQuit, runReady } from './scenarios/fleet';
import { runUi } from './scenarios/ui';
import { emitResult, type Task } from './lib/wire';

const task = JSON.parse(process.argv[2] ?? '{}') as Task;
const scenarios = { ready: runReady, quit: runQuit, big: runBig, ui: runUi };

try {
  const run = scenarios[task.scenario];
  if (!run) throw new Error(`unknown scenario ${String(task.scenario)}`);
  emitResult({ ok: true, ...(await run(task)) });
  process.exitCode = 0;
} catch (error) {
  emitResult({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
}
// Nothing of a sample may outlive it: exit even if some handle is still open.
setTimeout(() => process.exit(), 100).unref();
