/**
 * Tool-call arms for `npm run bench` (bench/areas.ts and bench/scenarios/remote.ts run them).
 *
 * Two arms on the same server (a stdio command, or a remote URL), each to be run in its own worker like
 * the other scenarios:
 *  - `hostToolArm`: the real core (`createHost`, temp data dir). `call` is the core API a model call
 *    takes — `host.tools.callToolWithConsent({origin: 'model'})` under a standing "always allow"
 *    (policy check, ajv validation, write-ahead audit row, the call, outcome) — and `runTool` the
 *    contract path a user run takes (`inProcessApi(handlers).runTool`: validated like a bridge call, answered with a capped preview).
 *  - `sdkToolArm`: the bare SDK (`Client` + `StdioClientTransport`, read buffer raised to 16 MB; or
 *    `StreamableHTTPClientTransport` for a URL).
 * `measureCalls` gives latency percentiles, host CPU per call and throughput at a given concurrency;
 * `measureBigPreview` times a big result and reports what would cross the bridge.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ToolCallOutcome } from '@contract';
import { createHost } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { waitFor } from '../../src-main/core/servers/wait';

/** A stdio server to spawn, or a remote one to reach by URL. */
export type BenchServer = { command: string; args: string[] } | { url: string };

export interface ToolArm {
  /** One call of `tool` with `args`; resolves with the result's first text (to check it arrived). */
  call(tool: string, args: Record<string, unknown>): Promise<unknown>;
  dispose(): Promise<void>;
}

export interface HostToolArm extends ToolArm {
  /** The contract path of a user run (`runTool` as a bridge calls it), resolving with the outcome. */
  runTool(tool: string, args: Record<string, unknown>): Promise<ToolCallOutcome>;
  /** The host's contract API (settings a scenario switches between samples, e.g. telemetry export). */
  api: ReturnType<typeof inProcessApi>;
}

/** The core with `server` added and ready, and "always allow" on `allowTools` (so model calls need no dialog). */
export async function hostToolArm(server: BenchServer, allowTools: string[]): Promise<HostToolArm> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-tools-'));
  const host = createHost({
    mode: 'web',
    sandboxByDefault: false,
    dataDir,
    appVersion: 'bench',
    connectionDefaults: { timeouts: { pingIntervalMs: 0 } },
  });
  const api = inProcessApi(host.handlers);
  const input =
    'url' in server
      ? { name: 'bench', transport: 'http' as const, url: server.url }
      : { name: 'bench', command: server.command, args: server.args };
  const added = await api.addServer(input);
  const serverId = added.config.id;
  await waitFor(async () => (await host.handlers.getSnapshot(undefined)).servers[0]?.runtime.status === 'ready', {
    timeoutMs: 60_000,
    what: 'the bench server',
  });
  for (const tool of allowTools) await api.setToolPolicy({ serverId, tool, policy: 'allow' });
  return {
    async call(tool, args) {
      const done = await host.tools.callToolWithConsent({ serverId, tool, args, origin: 'model' });
      if (done.status !== 'ok') throw new Error(`${tool}: ${done.status} ${done.error?.message ?? ''}`);
      return done.result.content?.[0];
    },
    runTool: (tool, args) => api.runTool({ serverId, tool, args }),
    api,
    async dispose() {
      await host.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The bare SDK on the same server. */
export async function sdkToolArm(server: BenchServer): Promise<ToolArm> {
  const client = new Client({ name: 'bench-sdk', version: '1.0.0' });
  if ('url' in server) {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  } else {
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      stderr: 'pipe',
      maxBufferSize: 16 * 1024 * 1024,
    });
    transport.stderr?.on('data', () => {});
    await client.connect(transport);
  }
  await client.listTools();
  return {
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      return result.content?.[0];
    },
    dispose: () => client.close(),
  };
}

export interface CallStats {
  /** The warm-up calls of the fresh connection (first in the process: V8 still compiling on background threads). */
  warmup: { calls: number; p50Ms: number; cpuUsPerCall: number };
  calls: number;
  p50Ms: number;
  p95Ms: number;
  /** Host process CPU (user + system) per call, microseconds. */
  cpuUsPerCall: number;
  /** Calls per second with `inFlight` concurrent calls. */
  throughput: number;
  inFlight: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** `n` calls one after another: each one's latency (sorted) and the process CPU they took, per call. */
async function sequential(call: () => Promise<unknown>, n: number): Promise<{ sorted: number[]; cpuUsPerCall: number }> {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  return { sorted: times.sort((a, b) => a - b), cpuUsPerCall: n > 0 ? (cpu.user + cpu.system) / n : 0 };
}

/**
 * Sequential latency (p50/p95) and CPU per call, then throughput with `inFlight` calls at a time, all
 * after `warmup` calls: until then V8 is still compiling hot code on background threads, which
 * `process.cpuUsage` counts — a one-time cost that grows with the amount of code (reported apart).
 */
export async function measureCalls(
  call: () => Promise<unknown>,
  {
    calls = 2000,
    warmup = 5000,
    inFlight = 32,
    concurrentCalls = calls,
  }: {
    calls?: number;
    warmup?: number;
    inFlight?: number;
    /**
     * Calls of the throughput measurement. 2,000 local calls at 32 in flight last ≈ 60–100 ms, short
     * enough for one timer of the host's (an audit batch, a log write) to land in it or not.
     */
    concurrentCalls?: number;
  } = {},
): Promise<CallStats> {
  const warm = await sequential(call, warmup);
  const measured = await sequential(call, calls);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < concurrentCalls) await call();
    }),
  );
  const throughput = concurrentCalls / ((performance.now() - t0) / 1000);
  return {
    warmup: { calls: warmup, p50Ms: warmup > 0 ? percentile(warm.sorted, 0.5) : 0, cpuUsPerCall: warm.cpuUsPerCall },
    calls,
    p50Ms: percentile(measured.sorted, 0.5),
    p95Ms: percentile(measured.sorted, 0.95),
    cpuUsPerCall: measured.cpuUsPerCall,
    throughput,
    inFlight,
  };
}

/** Times one big call; for the host arm, `frameBytes` is what the WebSocket/IPC bridge would carry. */
export async function measureBigPreview(run: () => Promise<unknown>): Promise<{ ms: number; frameBytes: number }> {
  const t = performance.now();
  const value = await run();
  const frameBytes = Buffer.byteLength(JSON.stringify({ type: 'result', id: 1, result: { ok: true, value } }));
  return { ms: performance.now() - t, frameBytes };
}
