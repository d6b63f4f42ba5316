/**
 * Remote servers in `npm run bench`: server-everything in its `streamableHttp` mode on 127.0.0.1, one
 * process for both arms. Measures (arms alternating, medians):
 *  - connect → ready, warm: the core's Start until the card says Ready (initialize — the era verdict
 *    is cached after the first connect —, the tools/resources/prompts lists) against the bare SDK
 *    client's connect (version probe included) plus the same three lists; and, for information, the
 *    core's first connect in a fresh host;
 *  - tool-call latency and throughput over HTTP: the model's path through the core (consent policy,
 *    validation, audit row) against the bare `callTool`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { everythingHttp, EVERYTHING_LISTENING, freePort } from '../../src-main/core/servers/test-support/everything-http';
import { waitFor } from '../../src-main/core/servers/wait';
import { countingListenerWarnings } from '../lib/listener-warnings';
import { hostToolArm, measureCalls, sdkToolArm, type CallStats } from '../lib/tool-arms';

export interface RemoteBenchResult {
  /** Warm connects: the core's Start → Ready against the bare SDK's connect plus the three lists. */
  connectMs: { host: number[]; sdk: number[] };
  /** The core's very first connect in a fresh host (cold code, version probe), one per round. */
  firstMs: number[];
  calls: { host: CallStats[]; sdk: CallStats[] };
  /** `MaxListenersExceededWarning`s while each arm's calls ran, summed over the rounds (see listener-warnings.ts). */
  listenerWarnings: { host: number; sdk: number };
}

/** server-everything over Streamable HTTP; resolves once it listens. */
async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const launch = everythingHttp('streamableHttp', port);
  const child = spawn(process.execPath, launch.args, { env: { ...process.env, ...launch.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => EVERYTHING_LISTENING.test(chunk.toString()) && resolve());
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code})`)));
  });
  child.stderr!.resume();
  return { url: `http://127.0.0.1:${port}${launch.path}`, child };
}

/**
 * The core, warm: one host, the server added once (its first connect, version probe included, is
 * `first`); then `times` × (Stop, then Start → the serverUpdated event saying Ready) — what a user's
 * Restart or a reconnect costs.
 */
async function hostConnects(url: string, times: number): Promise<{ first: number; warm: number[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-remote-'));
  const host = createHost({ mode: 'web', dataDir, appVersion: 'bench', connectionDefaults: { timeouts: { pingIntervalMs: 0 } } });
  let readyAt = 0;
  const unsubscribe = host.events.subscribe((event) => {
    if (event.name === 'serverUpdated' && event.payload.runtime.status === 'ready' && readyAt === 0) readyAt = performance.now();
  });
  const untilReady = () => waitFor(() => readyAt > 0, { timeoutMs: 30_000, intervalMs: 1, what: 'the remote server' });
  try {
    const api = inProcessApi(host.handlers);
    const t0 = performance.now();
    const added = await api.addServer({ name: 'remote', transport: 'http', url });
    await untilReady();
    const first = readyAt - t0;
    const id = added.config.id;
    const warm: number[] = [];
    for (let i = 0; i < times; i++) {
      await api.stopServer({ id });
      readyAt = 0;
      const t1 = performance.now();
      await api.startServer({ id });
      await untilReady();
      warm.push(readyAt - t1);
    }
    return { first, warm };
  } finally {
    unsubscribe();
    await host.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bare SDK: connect (its default negotiation) and the same three lists. */
async function sdkConnectMs(url: string): Promise<number> {
  const client = new Client({ name: 'bench-sdk', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    const t0 = performance.now();
    await client.connect(transport);
    await Promise.all([client.listTools(), client.listResources(), client.listPrompts()]);
    return performance.now() - t0;
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

export async function runRemote({
  rounds,
  connects,
  calls,
  warmup,
}: {
  rounds: number;
  connects: number;
  calls: number;
  /** Calls made before measuring, as in the stdio scenario: until then V8 is still compiling the hot path (reported apart). */
  warmup: number;
}): Promise<RemoteBenchResult> {
  const server = await startEverythingHttp();
  const result: RemoteBenchResult = {
    connectMs: { host: [], sdk: [] },
    firstMs: [],
    calls: { host: [], sdk: [] },
    listenerWarnings: { host: 0, sdk: 0 },
  };
  try {
    await sdkConnectMs(server.url); // warm-up, like the host arm's first connect
    for (let round = 0; round < rounds; round++) {
      const host = await hostConnects(server.url, connects);
      result.firstMs.push(host.first);
      result.connectMs.host.push(...host.warm);
      for (let i = 0; i < connects; i++) result.connectMs.sdk.push(await sdkConnectMs(server.url));
      const hostArm = await hostToolArm({ url: server.url }, ['get-sum']);
      const hostCalls = await countingListenerWarnings(() =>
        measureCalls(() => hostArm.call('get-sum', { a: 1, b: 2 }), { calls, warmup, inFlight: 16 }),
      );
      result.calls.host.push(hostCalls.value);
      result.listenerWarnings.host += hostCalls.warnings;
      await hostArm.dispose();
      const sdkArm = await sdkToolArm({ url: server.url });
      const sdkCalls = await countingListenerWarnings(() =>
        measureCalls(() => sdkArm.call('get-sum', { a: 1, b: 2 }), { calls, warmup, inFlight: 16 }),
      );
      result.calls.sdk.push(sdkCalls.value);
      result.listenerWarnings.sdk += sdkCalls.warnings;
      await sdkArm.dispose();
    }
  } finally {
    server.child.kill('SIGKILL');
  }
  return result;
}
