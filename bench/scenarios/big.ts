/**
 * `big`: one big-result.mjs server; after a small warm-up call, time the 10 MB `big` tool call and
 * track the worst main-thread stall while it arrives.
 *
 * Host arm: `createHost` does not expose the fleet and the contract has no tool-call method yet, so
 * this drives the host's own `ServerConnection` (our stdio transport, line framer, request runner)
 * with the options `ServerFleet.start` gives it. SDK arm: `client.callTool` over
 * `StdioClientTransport` with its read buffer raised to the host's 16 MB limit (its 10 MB default
 * rejects this message outright).
 */
import { performance } from 'node:perf_hooks';
import { InMemoryLiveProcessStore } from '../../src-main/core/servers/process/process-reaper';
import { ServerConnection } from '../../src-main/core/servers/connection/server-connection';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../src-main/core/servers/transport/stdio-transport';
import { SdkArm } from '../arms/sdk-arm';
import { descendants, killRefs, ownPgid, waitGone } from '../lib/procs';
import { BIG_TOOL, SPECS } from '../lib/servers';
import { startStallMonitor } from '../lib/stall';
import { emitPids, fullGc, type Task } from '../lib/wire';

interface CallArm {
  call(name: string, args: Record<string, unknown>): Promise<{ content?: unknown }>;
  stop(): Promise<unknown>;
}

async function hostArm(): Promise<CallArm> {
  const spec = SPECS['big-result'];
  const connection = new ServerConnection({
    config: { id: 'big', name: 'big-result', command: spec.command, args: spec.args },
    timeouts: { startMs: 60_000, requestMs: 60_000 },
    restart: { enabled: true },
    processStore: new InMemoryLiveProcessStore(),
  });
  const state = await connection.start();
  if (state.status !== 'ready') throw new Error(`big-result did not start: ${JSON.stringify(state)}`);
  return { call: (name, args) => connection.callTool(name, args), stop: () => connection.stop() };
}

async function sdkArm(): Promise<CallArm> {
  const arm = new SdkArm();
  await arm.startAll([SPECS['big-result']], { maxBufferSize: DEFAULT_MAX_MESSAGE_BYTES });
  const client = arm.clients[0];
  return { call: (name, args) => client.callTool({ name, arguments: args }), stop: () => arm.dispose() };
}

export async function runBig(task: Task): Promise<Record<string, unknown>> {
  const arm = task.arm === 'host' ? await hostArm() : await sdkArm();
  const refs = descendants(process.pid);
  emitPids(refs);
  await arm.call('echo', { message: 'warm-up' });
  fullGc();
  const monitor = await startStallMonitor();
  const t = performance.now();
  const result = await arm.call(BIG_TOOL.name, {});
  const callMs = performance.now() - t;
  const stall = monitor.stop();
  const text = (result.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '';
  if (text.length !== BIG_TOOL.bytes || !text.startsWith('0123456789abcdef'))
    throw new Error(`big result arrived damaged (${text.length} chars)`);
  const stopT = performance.now();
  await arm.stop();
  const stopMs = performance.now() - stopT;
  const left = await waitGone(refs, 1000, [ownPgid()]);
  return { callMs, stall, stopMs, processes: refs.length, leaked: left.length, killedByBench: killRefs(left) };
}
