/**
 * `ui`: time from spawning the built web host (`node out/main/web.js`) until a `getSnapshot` call
 * over its WebSocket is answered, with N enabled servers configured (the host starts them right
 * after listening) or none. Authenticates like a browser tab: GET the printed URL, read the
 * session credential from the page's meta tag, open /ws with `patchbay.v1` +
 * `patchbay.session.<credential>` and our Origin.
 *
 * Then keeps asking `getSnapshot` (one call in flight, 50 ms apart) until every server is ready
 * and at least 2 s have passed: the worst round trip says whether the UI stays usable while the
 * servers start. Finally quits the web host with SIGTERM and verifies its servers are gone.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import type { ServerFrame } from '@contract';
import { descendants, killRefs, remember, waitGone, type ProcRef } from '../lib/procs';
import { seedInto, tempDataDir } from '../lib/seed';
import { fleetSpecs } from '../lib/servers';
import { emitPids, type Task } from '../lib/wire';

const MIN_POLL_MS = 2000;

function seed(task: Task, n: number): string {
  const dataDir = tempDataDir();
  const specs = fleetSpecs(n, task.light);
  if (!task.seedEntry) seedInto(dataDir, specs);
  else {
    const r = spawnSync(process.execPath, [task.seedEntry, dataDir, JSON.stringify(specs)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`seeding failed: ${r.stderr}`);
  }
  return dataDir;
}

export async function runUi(task: Task): Promise<Record<string, unknown>> {
  if (!task.webEntry) throw new Error('no web host entry');
  const n = task.arm === 'host' ? task.n : 0;
  const dataDir = seed(task, n);
  const seen = new Map<string, ProcRef>();
  const t0 = performance.now();
  const prof =
    task.profileDir && task.arm === 'host'
      ? ['--cpu-prof', '--cpu-prof-dir', task.profileDir, '--cpu-prof-name', `ui-web-${task.n}-run${task.run}.cpuprofile`]
      : [];
  const child = spawn(process.execPath, [...prof, task.webEntry, '--no-open', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const marks: Record<string, number> = {};
  const since = (t: number) => Math.round((performance.now() - t) * 10) / 10;
  const mark = (name: string) => (marks[name] = since(t0));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let socket: WebSocket | undefined;
  const rtts: number[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /Patchbay web mode: (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`web host exited (${code}): ${stderr}`)));
    });
    mark('urlPrinted');
    const page = await (await fetch(url)).text();
    const credential = /<meta name="patchbay-session" content="([^"]+)"/.exec(page)?.[1];
    if (!credential) throw new Error('no session credential in the page');
    mark('pageLoaded');
    const origin = new URL(url).origin;
    const statuses = new Map<string, string>();
    let snapshotServers = -1;
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, ['patchbay.v1', `patchbay.session.${credential}`], { origin });
      socket = ws;
      let nextId = 1;
      let sentAt = 0;
      let firstAt = 0;
      const call = () => {
        sentAt = performance.now();
        ws.send(JSON.stringify({ type: 'call', id: nextId++, method: 'getSnapshot' }));
      };
      const allReady = () => [...statuses.values()].filter((s) => s === 'ready').length >= n;
      ws.on('open', () => {
        mark('socketOpen');
        call();
      });
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as ServerFrame;
        if (frame.type === 'event' && frame.event.name === 'serverUpdated') {
          const { config, runtime } = frame.event.payload;
          statuses.set(config.id, runtime.status);
          if (runtime.status === 'error' || runtime.status === 'crashed') reject(new Error(`${config.name}: ${runtime.reason}`));
          if (allReady() && marks.allReady === undefined && snapshotServers >= 0) mark('allReady');
          return;
        }
        if (frame.type !== 'result') return;
        if (!frame.result.ok) return reject(new Error(`getSnapshot failed: ${frame.result.error.message}`));
        if (frame.id === 1) {
          mark('snapshot');
          firstAt = performance.now();
          const snapshot = frame.result.value as { servers: { config: { id: string }; runtime: { status: string } }[] };
          snapshotServers = snapshot.servers.length;
          for (const s of snapshot.servers) if (!statuses.has(s.config.id)) statuses.set(s.config.id, s.runtime.status);
          if (allReady()) mark('allReady');
        } else rtts.push(performance.now() - sentAt);
        if (marks.allReady !== undefined && performance.now() - firstAt >= MIN_POLL_MS) resolve();
        else setTimeout(call, 50);
      });
      ws.on('error', reject);
      setTimeout(() => reject(new Error('servers not ready within 180 s')), 180_000).unref();
    });
    if (snapshotServers !== n) throw new Error(`snapshot listed ${snapshotServers} servers, expected ${n}`);
  } finally {
    socket?.close();
    emitPids(remember(seen, descendants(child.pid!)));
    const q = performance.now();
    child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killTimer);
    marks.quitMs = since(q);
  }
  const refs = [...seen.values()];
  const left = await waitGone(refs, 1000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const rtt = { max: Math.round(Math.max(0, ...rtts) * 10) / 10, calls: rtts.length };
  return { snapshotMs: marks.snapshot, marks, rtt, processes: refs.length, leaked: left.length, killedByBench: killRefs(left) };
}
