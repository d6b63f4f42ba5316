/**
 * `npm run bench`: the Patchbay host against the bare MCP SDK on the same servers, in one run.
 *
 * Every sample runs in a fresh worker process (bench/worker.ts: clean heap, cold caches, nothing
 * left from an earlier sample), host arm and SDK arm alternating (ABAB…), each arm ending with all
 * its servers stopped and verified gone via /proc; this orchestrator sweeps again after every
 * worker. Prints the table of medians, ranges, ratios and targets; writes JSON (see --out).
 */
import './lib/as-built-entry';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseOptions, plan, USAGE, type Options } from './lib/cli';
import { killRefs, ownPgid, waitGone, type ProcRef } from './lib/procs';
import { evaluate, metricDefs, table, type Sample } from './lib/report';
import { REPO } from './lib/servers';
import { PIDS_PREFIX, RESULT_PREFIX, type Task } from './lib/wire';
import { waitForQuiet } from './lib/quiet';
import { prepareWebHost } from './lib/web-host';
import { builtScript } from './lib/as-built';

// Run as built, like the host it measures (see lib/as-built.ts).
const WORKER = builtScript(path.join(REPO, 'bench/worker.ts'));
const SAMPLE_TIMEOUT_MS = 300_000;
/** Total time the quiet gate may wait over a whole run (keeps the default run ≲ 10 min). */
const GATE_BUDGET_MS = 150_000;

/** The sample in progress: its worker, and the processes it recorded (killed if we are interrupted). */
let inFlight = new Map<string, ProcRef>();
let currentWorker: ReturnType<typeof spawn> | undefined;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.log(`\nbench: ${signal}, stopping the current sample and cleaning up…`);
    currentWorker?.kill('SIGKILL');
    // The worker's servers are detached (own process groups): they do not die with it.
    setTimeout(() => {
      killRefs([...inFlight.values()]);
      process.exit(130);
    }, 300);
  });
}

/** Runs one sample in a fresh worker; always leaves no process of it behind. */
async function runSample(task: Task, o: Options): Promise<Sample> {
  const t = performance.now();
  const prof =
    o.profile && task.arm === 'host'
      ? [
          '--cpu-prof',
          '--cpu-prof-dir',
          path.join(REPO, 'bench/results/profiles'),
          '--cpu-prof-name',
          `${task.scenario}-${task.n}-run${task.run}.cpuprofile`,
        ]
      : [];
  const child = spawn(process.execPath, ['--expose-gc', ...prof, WORKER, JSON.stringify(task)], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  currentWorker = child;
  const refs = new Map<string, ProcRef>();
  inFlight = refs;
  let result: Record<string, unknown> | undefined;
  let stderr = '';
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith(PIDS_PREFIX))
        for (const r of JSON.parse(line.slice(PIDS_PREFIX.length)) as ProcRef[]) refs.set(`${r.pid}:${r.start}`, r);
      else if (line.startsWith(RESULT_PREFIX)) result = JSON.parse(line.slice(RESULT_PREFIX.length));
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (o.verbose) process.stderr.write(chunk);
    stderr = (stderr + chunk.toString()).slice(-3000);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), SAMPLE_TIMEOUT_MS);
  await new Promise((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  // Safety net: whatever the worker recorded must be gone (a crashed worker cannot clean up).
  const left = await waitGone([...refs.values()], 2000, [ownPgid()]);
  const swept = killRefs(left);
  const ok = result?.ok === true;
  const error = ok
    ? undefined
    : String(result?.error ?? `worker exited without a result: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return { task, ok, result, error, wallMs: performance.now() - t, sweptByOrchestrator: swept };
}

function describe(s: Sample): string {
  if (!s.ok) return `FAILED: ${s.error?.split('\n')[0]}`;
  const r = s.result as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const left = `left ${r.leaked ?? 0}${s.sweptByOrchestrator ? ` (+${s.sweptByOrchestrator} swept)` : ''}`;
  if (s.task.scenario === 'ready')
    return `ready ${r.readyMs.toFixed(0)} ms, stall ${r.stall.worstMs} ms, stop ${r.stopMs.toFixed(0)} ms, ${left}`;
  if (s.task.scenario === 'quit') return `quit ${r.quitMs.toFixed(0)} ms, ${left} (at resolve ${r.leftAtResolve})`;
  if (s.task.scenario === 'big') return `call ${r.callMs.toFixed(0)} ms, stall ${r.stall.worstMs} ms, ${left}`;
  return `snapshot ${r.snapshotMs} ms, worst RTT ${r.rtt.max} ms, all ready ${r.marks.allReady} ms, quit ${r.marks.quitMs} ms, ${left}`;
}

/** Hash of the code under test: other engineers edit the tree while a long run is going. */
function treeFingerprint(): string {
  const hash = crypto.createHash('sha1');
  for (const dir of ['src-main', 'src-preload']) {
    for (const file of (fs.readdirSync(path.join(REPO, dir), { recursive: true }) as string[]).sort()) {
      const full = path.join(REPO, dir, file);
      if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
    }
  }
  return hash.digest('hex').slice(0, 12);
}

function gitInfo() {
  const rev = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: REPO, encoding: 'utf8' }).stdout.trim() !== '';
  return { commit: rev || undefined, dirty };
}

async function main(): Promise<void> {
  let o;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (o === 'help') return console.log(USAGE);
  const notes: string[] = [];
  let web: Awaited<ReturnType<typeof prepareWebHost>> | undefined;
  if (o.only.has('ui')) {
    process.stdout.write(o.build ? 'Building the web host (npx electron-vite build)… ' : 'Checking out/main/web.js… ');
    web = await prepareWebHost(o.build);
    console.log('error' in web ? `unusable: ${web.error}` : (web.note ?? 'ok'));
    if ('error' in web) {
      notes.push(`metric 2 skipped: ${web.error}`);
      o.only.delete('ui');
    } else if (web.note) notes.push(web.note);
  }
  const webTask = web && !('error' in web) ? { webEntry: web.entry, seedEntry: web.seedEntry } : {};
  // --profile: the ui scenario profiles the web host it spawns (where the round trips are answered).
  const webProfile = o.profile ? { profileDir: path.join(REPO, 'bench/results/profiles') } : {};
  const tasks = plan(o).map((t) => (t.scenario === 'ui' ? { ...t, ...webTask, ...webProfile } : t));
  const fleet = o.light ? 'echo.mjs' : 'server-everything';
  console.log(
    `Patchbay bench: ${o.runs} run(s) per arm, ${tasks.length} samples, fleet = ${fleet}, host start = ${o.hostStart}, ${os.cpus().length} CPUs, Node ${process.versions.node}`,
  );
  const started = performance.now();
  const fingerprintBefore = treeFingerprint();
  let gateWaited = 0;
  const samples: Sample[] = [];
  for (const [i, task] of tasks.entries()) {
    if (interrupted) break;
    const quiet = o.quietGate ? await waitForQuiet(0.25, Math.min(15_000, Math.max(0, GATE_BUDGET_MS - gateWaited))) : undefined;
    gateWaited += quiet?.waitedMs ?? 0;
    const sample = { ...(await runSample(task, o)), load1: os.loadavg()[0], busyBefore: quiet?.busy };
    samples.push(sample);
    const label = `${task.scenario} N=${task.n} ${task.scenario === 'ui' ? (task.arm === 'host' ? `${task.n} cfg` : '0 cfg') : task.arm}`;
    const elapsed = ((performance.now() - started) / 1000).toFixed(0);
    const busy = quiet && quiet.busy >= 0.25 ? ` [box busy ${Math.round(quiet.busy * 100)}% before]` : '';
    console.log(
      `[${String(i + 1).padStart(3)}/${tasks.length} run ${task.run} ${elapsed.padStart(4)} s] ${label.padEnd(22)} ${describe(sample)}${busy}`,
    );
  }
  const totalS = (performance.now() - started) / 1000;
  const fingerprintAfter = treeFingerprint();
  if (fingerprintAfter !== fingerprintBefore)
    notes.push(
      `the code under test changed during the run (src fingerprint ${fingerprintBefore} → ${fingerprintAfter}): samples may mix versions`,
    );
  if (web && !('error' in web)) web.cleanup();

  const results = evaluate(samples, metricDefs(o.sizes), o.runs);
  console.log(`\nResults (median [min–max] of ${o.runs} run(s) per arm; ratio = median A / median B, range = run-by-run A/B):\n`);
  console.log(table(results));
  const failed = samples.filter((s) => !s.ok);
  const leaked = samples.reduce(
    (n, s) => n + (s.task.arm === 'host' || s.task.scenario === 'ui' ? ((s.result?.leaked as number) ?? 0) : 0),
    0,
  );
  console.log(`\nHost-side processes left behind over all samples: ${leaked}; SDK leftovers were killed by the bench.`);
  const busySamples = samples.filter((s) => (s.busyBefore ?? 0) >= 0.25).length;
  if (busySamples)
    notes.push(
      `${busySamples} of ${samples.length} samples started while other work kept the CPUs ≥ 25 % busy (quiet gate waited ${Math.round(gateWaited / 1000)} s in total)`,
    );
  for (const note of notes) console.log(`Note: ${note}`);
  if (failed.length)
    console.log(
      `${failed.length} sample(s) failed:\n${failed.map((s) => `  ${s.task.scenario} N=${s.task.n} ${s.task.arm} run ${s.task.run}: ${s.error}`).join('\n')}`,
    );
  console.log(`Total ${totalS.toFixed(0)} s.`);

  const out = path.resolve(REPO, o.out);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const json = {
    generatedAt: new Date().toISOString(),
    git: { ...gitInfo(), srcFingerprint: { before: fingerprintBefore, after: fingerprintAfter } },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGB: Math.round(os.totalmem() / 2 ** 30),
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
    },
    options: { ...o, only: [...o.only] },
    totalSeconds: Math.round(totalS),
    notes,
    metrics: results,
    samples,
  };
  fs.writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`Wrote ${path.relative(REPO, out)}`);
}

void main();
