/**
 * Telemetry's cost on the tool-call path (issue 40): the same host, the same echo server, tool calls
 * with OpenTelemetry export off and on (to a local OTLP/HTTP receiver in a process of its own, http/protobuf, trace context
 * in every request), alternating off/on rounds in one run. Reports p50 and host CPU per call for
 * each and their ratio (target ≤ 1.05×).
 *
 * Run alone, as built (see lib/as-built.ts): `npx tsx bench/scenarios/telemetry.ts [--rounds N]
 * [--calls N] [--only on|off]` (`--only` runs one mode for a profile: `node --cpu-prof` on the bundle).
 *
 * Why it is honest about the export: both modes are warmed up before any round (the exporter's
 * encoding is compiled before it is measured, not in the first "on" round), each round warms its
 * new pipeline, and the warm-up and the measured calls are whole multiples of the span queue's batch
 * (512): the measured "on" window encodes and posts exactly its own number of spans, the batches'
 * CPU counted as the user pays it, over enough calls that no single batch decides a round.
 */
import '../lib/as-built-entry';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { startOtlpSink } from '../lib/otlp-sink';
import { REPO } from '../lib/servers';
import { hostToolArm, measureCalls } from '../lib/tool-arms';

const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const rounds = Number(option('--rounds')) || 6;
/** Spans per export batch (`span-queue.ts`): warm-up and measured calls are multiples of it. */
const BATCH = 512;
const calls = Math.max(1, Math.round((Number(option('--calls')) || 8 * BATCH) / BATCH)) * BATCH;
const only = option('--only') as 'on' | 'off' | undefined;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main() {
  // The receiver runs in a process of its own: its CPU is not the host's.
  const sink = await startOtlpSink();
  const endpoint = sink.url;
  const arm = await hostToolArm({ command: process.execPath, args: [path.join(REPO, 'e2e/fixtures/echo.mjs')] }, ['echo']);
  const call = () => arm.call('echo', { message: 'hi' });
  const setExport = (enabled: boolean) =>
    arm.api.setTelemetry({ enabled, endpoint, protocol: 'http/protobuf', headers: [], propagate: true, exportContent: false });
  const run = (n: number, warmup: number) => measureCalls(call, { calls: n, warmup, concurrentCalls: 0 });
  const results = { off: [] as { p50: number; cpu: number }[], on: [] as { p50: number; cpu: number }[] };
  const loadBefore = load();
  try {
    // Both paths compiled before anything is measured.
    for (const mode of ['off', 'on', 'off', 'on'] as const) {
      await setExport(mode === 'on');
      await run(0, 6 * BATCH);
    }
    for (let round = 0; round < rounds; round++) {
      const order = only ? [only] : round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const mode of order) {
        await setExport(mode === 'on');
        const stats = await run(calls, 2 * BATCH);
        results[mode].push({ p50: stats.p50Ms, cpu: stats.cpuUsPerCall });
      }
    }
    const telemetry = await arm.api.getTelemetry();
    console.log(`load average before ${loadBefore} · after ${load()}; ${rounds} rounds of ${calls} calls per mode`);
    for (const mode of ['off', 'on'] as const) {
      if (results[mode].length === 0) continue;
      const cpus = results[mode].map((r) => r.cpu);
      console.log(
        `${mode}: p50 ${median(results[mode].map((r) => r.p50)).toFixed(3)} ms · CPU per call ${median(cpus).toFixed(0)} µs (rounds ${Math.min(...cpus).toFixed(0)}–${Math.max(...cpus).toFixed(0)})`,
      );
    }
    if (!only) {
      const ratio = (key: 'p50' | 'cpu') => median(results.on.map((r) => r[key])) / median(results.off.map((r) => r[key]));
      const paired = results.on.map((r, i) => r.cpu / results.off[i]!.cpu);
      console.log(`tool call p50 on/off ${ratio('p50').toFixed(2)}× (target ≤ 1.05×)`);
      console.log(
        `host CPU per call on/off ${ratio('cpu').toFixed(2)}× (target ≤ 1.05×); per round ${paired.map((r) => r.toFixed(2)).join(' ')}, median ${median(paired).toFixed(2)}×`,
      );
    }
    console.log(
      `spans exported ${telemetry.exported} · dropped ${telemetry.dropped}${telemetry.lastError ? ` (${telemetry.lastError})` : ''} · export posts received ${await sink.posts()}`,
    );
    console.log(JSON.stringify({ rounds, calls, off: results.off, on: results.on }));
  } finally {
    await arm.dispose();
    sink.stop();
  }
}

await main();
