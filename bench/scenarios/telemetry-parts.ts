/**
 * The telemetry area's own CPU per tool call, export on against off, without the rest of the host
 * (issue 40): the real `TurnRecorder` gets a tool call's events and wire messages as the host emits
 * them (started, the request carrying its trace context, the response, finished) in a loop, with an
 * `OtelExport` to a local OTLP/HTTP receiver (a process of its own) or none. What the full bench
 * (`telemetry.ts`) cannot resolve on a loaded box — a few µs out of ≈ 200 — shows here, with the
 * export batches (protobuf encoding, the POST) inside the measured rounds.
 *
 * `npx tsx bench/scenarios/telemetry-parts.ts [--rounds N] [--calls N]` (as built, see lib/as-built.ts).
 */
import '../lib/as-built-entry';
import os from 'node:os';
import process from 'node:process';
import type { HostEvent } from '@contract';
import { OtelExport } from '../../src-main/core/telemetry/otel-export';
import { formatTraceparent, withTraceContext } from '../../src-main/core/telemetry/trace-context';
import { TurnRecorder } from '../../src-main/core/telemetry/turn-recorder';
import { startOtlpSink } from '../lib/otlp-sink';

const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const rounds = Number(option('--rounds')) || 10;
const calls = Number(option('--calls')) || 8 * 512;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const sink = await startOtlpSink();
  let otel: OtelExport | undefined;
  const facts = { name: 'echo', protocolVersion: '2025-11-25', transport: 'pipe' as const };
  const recorder = new TurnRecorder({ now: () => Date.now(), otel: () => otel, facts: () => facts, exportContent: () => false });
  let id = 0;
  const emit = (name: string, payload: unknown) => recorder.onEvent({ name, payload } as HostEvent);

  /** One model call as the host reports it to the recorder (and as the trace plugin sends its request). */
  const call = () => {
    const callId = `call-${++id}`;
    const key = { callId, serverId: 'srv', serverName: 'echo', tool: 'echo', origin: 'model' as const };
    emit('toolCallStarted', { ...key, startedAt: new Date().toISOString() });
    let params: Record<string, unknown> = { name: 'echo', arguments: { message: 'hi' } };
    const context = otel && recorder.pendingCall('srv', 'echo')?.otel?.spanContext();
    if (context) params = withTraceContext(params, formatTraceparent(context.traceId, context.spanId));
    recorder.onRequestSent('srv', { id, method: 'tools/call', params, bytes: 90 });
    recorder.onResponse('srv', id, 60, { content: [{ type: 'text', text: 'hi' }] });
    emit('toolCallFinished', { ...key, status: 'ok', durationMs: 1 });
  };

  /** `n` calls, the event loop turned every 64 (exports go out as they would between calls). */
  const run = async (n: number) => {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      call();
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / n;
  };
  const setExport = async (on: boolean) => {
    await otel?.shutdown();
    otel = on ? new OtelExport({ endpoint: sink.url, protocol: 'http/protobuf', headers: {} }, 'bench', () => undefined) : undefined;
  };

  const results = { off: [] as number[], on: [] as number[] };
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  for (const on of [false, true, false, true]) {
    await setExport(on);
    await run(4 * 512);
  }
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      await setExport(mode === 'on');
      await run(512);
      results[mode].push(await run(calls));
    }
  }
  await setExport(false);
  const off = median(results.off);
  const on = median(results.on);
  console.log(`load average ${loadBefore} → ${os.loadavg()[0]!.toFixed(1)}; ${rounds} rounds of ${calls} calls per mode`);
  console.log(
    `telemetry CPU per call: off ${off.toFixed(2)} µs · on ${on.toFixed(2)} µs · export adds ${(on - off).toFixed(2)} µs (rounds on ${Math.min(...results.on).toFixed(1)}–${Math.max(...results.on).toFixed(1)})`,
  );
  console.log(`export posts received ${await sink.posts()}`);
  sink.stop();
}

await main();
