/**
 * `ready`: bring N servers up (all-ready time), with the stall monitor running and memory taken
 * before and after; then stop them and verify every process is gone.
 * `quit`: bring N servers up, one of them ignoring SIGTERM, then time the arm's quit and count
 * what it left behind.
 */
import { HostArm } from '../arms/host-arm';
import { SdkArm } from '../arms/sdk-arm';
import { killRefs, leftovers, ownPgid, remember, vmRssBytes, waitGone, type ProcRef } from '../lib/procs';
import { fleetSpecs, type ServerSpec } from '../lib/servers';
import { settledRss } from '../lib/settled-rss';
import { startStallMonitor } from '../lib/stall';
import { emitPids, fullGc, sleep, type Task } from '../lib/wire';

interface FleetArm {
  startAll(specs: ServerSpec[]): Promise<number>;
  processes(): ProcRef[];
  dispose(): Promise<number>;
  phases(): Record<string, number[]>;
}

function makeArm(task: Task, specs: ServerSpec[]): FleetArm {
  if (task.arm === 'sdk') {
    const sdk = new SdkArm();
    return {
      startAll: (s) => sdk.startAll(s),
      processes: () => sdk.processes(),
      dispose: () => sdk.dispose(),
      phases: () => ({ ...sdk.phases() }),
    };
  }
  const arm = task.hostStart === 'launch' ? HostArm.seeded(specs) : HostArm.empty();
  return {
    startAll: (s) => arm.startAll(s, task.hostStart),
    processes: () => arm.processes(),
    dispose: () => arm.dispose(),
    phases: () => ({ ...arm.phases() }),
  };
}

/** After forced GCs; RSS also once the freed pages are back with the OS (see settled-rss.ts). */
const memory = async () => {
  fullGc();
  const m = process.memoryUsage();
  const settled = await settledRss(m.rss);
  return { rssAtOnce: m.rss, rss: settled.rss, heap: m.heapUsed, external: m.external + m.arrayBuffers };
};

/** Stops the arm and checks, via /proc, that every recorded process is gone; kills stragglers. */
async function stopAndVerify(arm: FleetArm, seen: Map<string, ProcRef>) {
  const refs = [...seen.values()];
  const stopMs = await arm.dispose();
  const except = [ownPgid()];
  const leftAtResolve = leftovers(refs, except).length;
  const stillLeft = await waitGone(refs, 1000, except);
  const killedByBench = killRefs(stillLeft);
  return { stopMs, processes: refs.length, leftAtResolve, leaked: stillLeft.length, killedByBench };
}

export async function runReady(task: Task): Promise<Record<string, unknown>> {
  const specs = fleetSpecs(task.n, task.light);
  const arm = makeArm(task, specs);
  const seen = new Map<string, ProcRef>();
  const before = await memory();
  const monitor = await startStallMonitor();
  let readyMs: number;
  try {
    readyMs = await arm.startAll(specs);
  } finally {
    emitPids(remember(seen, arm.processes()));
  }
  const stall = monitor.stop();
  // The steady state: list_changed debounce, verdict writes, and one full interval of the log writer
  // (500 ms), after which saved log entries leave memory.
  await sleep(700);
  emitPids(remember(seen, arm.processes()));
  const after = await memory();
  const refs = [...seen.values()];
  const childRss = refs.reduce((sum, ref) => sum + vmRssBytes(ref.pid), 0);
  const stop = await stopAndVerify(arm, seen);
  return {
    readyMs,
    phases: summarize(arm.phases()),
    stall,
    mem: {
      rssPerServer: (after.rss - before.rss) / task.n,
      // Read right after the GC, as before the settling: for comparison with older results.
      rssAtOncePerServer: (after.rssAtOnce - before.rssAtOnce) / task.n,
      heapPerServer: (after.heap - before.heap) / task.n,
      externalPerServer: (after.external - before.external) / task.n,
      childRssPerServer: childRss / task.n,
      childProcesses: refs.length,
    },
    ...stop,
  };
}

export async function runQuit(task: Task): Promise<Record<string, unknown>> {
  const specs = fleetSpecs(task.n, task.light, true);
  const arm = makeArm(task, specs);
  const seen = new Map<string, ProcRef>();
  let readyMs: number;
  try {
    readyMs = await arm.startAll(specs);
  } finally {
    emitPids(remember(seen, arm.processes()));
  }
  await sleep(300);
  emitPids(remember(seen, arm.processes())); // includes the stubborn server's grandchild
  const stop = await stopAndVerify(arm, seen);
  return { readyMs, quitMs: stop.stopMs, ...stop };
}

/** Median and max of each phase list (ms). */
function summarize(phases: Record<string, number[]>): Record<string, { median: number; max: number }> {
  const out: Record<string, { median: number; max: number }> = {};
  for (const [name, values] of Object.entries(phases)) {
    if (values.length === 0) continue;
    const sorted = [...values].sort((a, b) => a - b);
    out[name] = { median: round(sorted[Math.floor(sorted.length / 2)]), max: round(sorted[sorted.length - 1]) };
  }
  return out;
}

const round = (x: number) => Math.round(x * 10) / 10;
