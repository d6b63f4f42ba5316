/**
 * One sample of the notification-flood benchmark, in a fresh process (run by scenarios/flood.ts:
 * `node --expose-gc .cache/bench/flood-sample.mjs <arm> <seconds>`, as built: see as-built.ts), printing
 * one JSON line.
 *
 * A real host with two servers: `e2e/fixtures/notification-flood.mjs` and `echo.mjs`. The `flood` arm
 * calls the flood tool (notifications/message and progress as fast as stdout takes them for
 * `seconds`); the `quiet` arm calls the same tool with kind `none` (it waits as long, sending
 * nothing) — the baseline. Meanwhile the echo server is called over and over, and the host's RSS is
 * sampled. Measured: RSS growth (peak during the call minus before it), how long after the server's
 * flood ended (its own clock, reported in the result) the response reached the host, and the echo
 * server's call latency during the call.
 */
import './as-built-entry';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { waitFor } from '../../src-main/core/servers/wait';
import { REPO } from './servers';
import { fullGc, sleep } from './wire';

export interface FloodSample {
  arm: 'flood' | 'quiet';
  rssBeforeMB: number;
  rssPeakMB: number;
  rssGrowthMB: number;
  /** Peak heap during the call minus before; and what a full GC afterwards left of the growth. */
  heapPeakGrowthMB: number;
  heapKeptMB: number;
  /** Host receipt of the flooding call's response minus the server's "flood over" time. */
  responseDelayMs: number;
  /** Notifications the server wrote. */
  sent: number;
  /** The other server's call latencies during the call (ms). */
  echoMs: number[];
  /** Host log entries that say messages were dropped. */
  dropEntries: string[];
}

const fixture = (name: string) => ({ command: process.execPath, args: [path.join(REPO, 'e2e', 'fixtures', name)] });

async function sample(arm: 'flood' | 'quiet', seconds: number): Promise<FloodSample> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-flood-'));
  const host = createHost({
    mode: 'web',
    sandboxByDefault: false,
    dataDir,
    appVersion: 'bench',
    connectionDefaults: { timeouts: { pingIntervalMs: 0 } },
  });
  const api = inProcessApi(host.handlers);
  try {
    const flood = (await api.addServer({ name: 'flood', ...fixture('notification-flood.mjs') })).config.id;
    const echo = (await api.addServer({ name: 'echo', ...fixture('echo.mjs') })).config.id;
    await waitFor(async () => (await host.handlers.getSnapshot(undefined)).servers.every((s) => s.runtime.status === 'ready'), {
      timeoutMs: 60_000,
      what: 'both servers ready',
    });
    await api.setToolPolicy({ serverId: flood, tool: 'flood', policy: 'allow' });
    await api.setToolPolicy({ serverId: echo, tool: 'echo', policy: 'allow' });
    const callEcho = () => host.tools.callToolWithConsent({ serverId: echo, tool: 'echo', args: { message: 'hi' }, origin: 'model' });
    for (let i = 0; i < 50; i++) await callEcho(); // warm

    fullGc();
    await sleep(200);
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    let rssPeak = rssBefore;
    let heapPeak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      rssPeak = Math.max(rssPeak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed);
    }, 50);

    let done = false;
    let receivedAt = 0;
    const call = host.tools
      .callToolWithConsent({ serverId: flood, tool: 'flood', args: { seconds, kind: arm === 'flood' ? 'both' : 'none' }, origin: 'model' })
      .then((outcome) => {
        receivedAt = Date.now();
        done = true;
        return outcome;
      });
    const echoMs: number[] = [];
    while (!done) {
      const t = performance.now();
      await callEcho();
      echoMs.push(performance.now() - t);
      await sleep(20);
    }
    const outcome = await call;
    clearInterval(sampler);
    fullGc();
    const heapAfter = process.memoryUsage().heapUsed;
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (outcome.status !== 'ok') throw new Error(`flood call: ${outcome.status} ${outcome.error?.message ?? ''}`);
    const text = (outcome.result.content?.[0] as { text?: string } | undefined)?.text ?? '';
    const match = /flooded (\d+) notifications.*ended at (\d+)/.exec(text);
    if (!match) throw new Error(`unexpected flood result: ${text}`);
    await sleep(1500); // the drop report is written once per interval
    const host_ = await api.queryLogs({ serverId: flood, stream: 'host', limit: 200 });
    return {
      arm,
      rssBeforeMB: rssBefore / 2 ** 20,
      heapPeakGrowthMB: (heapPeak - heapBefore) / 2 ** 20,
      heapKeptMB: (heapAfter - heapBefore) / 2 ** 20,
      rssPeakMB: rssPeak / 2 ** 20,
      rssGrowthMB: (rssPeak - rssBefore) / 2 ** 20,
      responseDelayMs: receivedAt - Number(match[2]),
      sent: Number(match[1]),
      echoMs,
      dropEntries: host_.entries.map((e) => e.text).filter((t) => /dropped/.test(t)),
    };
  } finally {
    await host.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const [arm, seconds] = [process.argv[2] as 'flood' | 'quiet', Number(process.argv[3] ?? 10)];
try {
  process.stdout.write(`@@flood ${JSON.stringify(await sample(arm, seconds))}\n`);
} catch (error) {
  process.stdout.write(`@@flood ${JSON.stringify({ error: (error as Error).stack ?? String(error) })}\n`);
  process.exitCode = 1;
}
setTimeout(() => process.exit(), 100).unref();
