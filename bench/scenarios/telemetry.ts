/**
 * Telemetry's cost on the tool-call path (issue 40): the same host, the same echo server, tool calls
 * with OpenTelemetry export off and on (to a local OTLP/HTTP receiver, http/protobuf, trace context
 * in every request), alternating off/on rounds in one run. Reports p50 and host CPU per call for
 * each and their ratio (target ≤ 1.05×). Run alone: `npx tsx bench/scenarios/telemetry.ts [--rounds N]`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import process from 'node:process';
import { hostToolArm, measureCalls } from '../lib/tool-arms';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 4;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const arm = await hostToolArm({ command: process.execPath, args: [path.join(import.meta.dirname, '../../e2e/fixtures/echo.mjs')] }, [
    'echo',
  ]);
  const call = () => arm.call('echo', { message: 'hi' });
  const setExport = (enabled: boolean) =>
    arm.api.setTelemetry({ enabled, endpoint, protocol: 'http/protobuf', headers: [], propagate: true, exportContent: false });
  const results = { off: [] as { p50: number; cpu: number }[], on: [] as { p50: number; cpu: number }[] };
  try {
    await measureCalls(call, { calls: 0, warmup: 5_000, concurrentCalls: 0 });
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        await setExport(mode === 'on');
        const stats = await measureCalls(call, { calls: 2_000, warmup: 500, concurrentCalls: 0 });
        results[mode].push({ p50: stats.p50Ms, cpu: stats.cpuUsPerCall });
      }
    }
    const telemetry = await arm.api.getTelemetry();
    const off = { p50: median(results.off.map((r) => r.p50)), cpu: median(results.off.map((r) => r.cpu)) };
    const on = { p50: median(results.on.map((r) => r.p50)), cpu: median(results.on.map((r) => r.cpu)) };
    console.log(
      `tool call p50: off ${off.p50.toFixed(3)} ms · on ${on.p50.toFixed(3)} ms · ${(on.p50 / off.p50).toFixed(2)}× (target ≤ 1.05×)`,
    );
    console.log(
      `host CPU per call: off ${off.cpu.toFixed(0)} µs · on ${on.cpu.toFixed(0)} µs · ${(on.cpu / off.cpu).toFixed(2)}× (target ≤ 1.05×)`,
    );
    console.log(`spans exported ${telemetry.exported} · dropped ${telemetry.dropped} · export posts received ${received}`);
    console.log(JSON.stringify({ rounds, off: results.off, on: results.on }));
  } finally {
    await arm.dispose();
    receiver.closeAllConnections();
    receiver.close();
  }
}

await main();
