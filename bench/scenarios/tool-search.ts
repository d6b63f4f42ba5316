/**
 * `tool-search`: what tool search saves and costs, on a real host (`createHost`, servers as
 * subprocesses) asking the scripted Messages API on 127.0.0.1 (no tool limit there, so search Off
 * still sends everything and can be measured):
 *
 * - fleets: 12× server-everything, and 50 servers of `e2e/fixtures/forty-tools.mjs` (2,000 tools);
 * - first request of "hello there": bytes of the `tools` JSON and its tokens (o200k_base through gpt-tokenizer,
 *   an approximation for any provider), search Off against Automatic;
 * - the index over the 2,000 definitions of that request (`ToolIndex`, as a turn builds it): build time
 *   (median), search latency p95 over varied queries, heap kept per 1,000 tools (after GC);
 * - a turn that needs `get-sum` on the 12× fleet: offered up front (search Off) against found by a
 *   search first (Automatic), consent answered at once in both, send → turn idle; the difference is
 *   the search round (one more model request plus the host's search).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { HostApi, HostEvent, ServerInput, ToolSearchMode } from '@contract';
import { createHost, type Host } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { waitFor } from '../../src-main/core/servers/wait';
import { paramNamesOf, ToolIndex } from '../../src-main/core/tool-search/tool-index';
import type { RecordedRequest, ScriptStep } from '../../src-main/core/chat/test-support/scripted-llm';
import { startScriptedProcess } from '../../src-main/test-support/scripted-process';
import { REPO } from '../lib/servers';

export interface FirstRequest {
  tools: number;
  bytes: number;
  tokens: number;
  /** Bytes of the system prompt (the servers' instructions go there). */
  systemBytes: number;
}

export interface FleetResult {
  label: string;
  off: FirstRequest;
  on: FirstRequest;
  /** Every server's instructions switched on (as servers from before migration 021 keep them), search Automatic and Off. */
  instructionsOn?: { on: FirstRequest; off: FirstRequest };
}

export interface ToolSearchResult {
  fleets: FleetResult[];
  indexTools: number;
  buildMs: number[];
  /** CPU time of this process for the same builds: on a shared machine, wall time also counts waiting for a core. */
  buildCpuMs: number[];
  searchP95Ms: number;
  searchCpuP95Ms: number;
  heapPer1000ToolsKB: number;
  upFrontMs: number[];
  searchedMs: number[];
}

/** The scripted Messages API, its path from the repository (this file runs bundled elsewhere, see lib/as-built.ts). */
export async function startScriptedLlm() {
  const server = await startScriptedProcess<ScriptStep, RecordedRequest>(
    path.join(REPO, 'e2e/fixtures/scripted-llm/server.mjs'),
    'scripted LLM',
    {},
  );
  return {
    ...server,
    async messageRequests() {
      return (await server.requests()).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/messages'));
    },
  };
}
export type ScriptedLlm = Awaited<ReturnType<typeof startScriptedLlm>>;

const EVERYTHING = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FORTY = path.join(REPO, 'e2e/fixtures/forty-tools.mjs');
const QUERIES = [
  'sum',
  'get release',
  'create label',
  'echo',
  'delete comment',
  'zzqx nothing',
  'list issues',
  'image',
  'export',
  'milestone update',
];
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

export const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  })();

async function startFleet(llm: ScriptedLlm, servers: ServerInput[]): Promise<{ host: Host; api: HostApi; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-tool-search-'));
  const host = createHost({ mode: 'web', sandboxByDefault: false, appVersion: 'bench', dataDir });
  const api = inProcessApi(host.handlers);
  await api.setApiKey({ apiKey: 'sk-ant-bench' });
  await api.updateSettings({ anthropicBaseUrl: llm.url });
  for (const server of servers) await api.addServer(server);
  await waitFor(async () => (await api.getSnapshot()).servers.every((s) => s.runtime.status === 'ready'), {
    timeoutMs: 180_000,
    what: `${servers.length} servers to be ready`,
  });
  // Every consent is allowed at once (both arms of the latency comparison ask one).
  host.events.subscribe((event: HostEvent) => {
    if (event.name === 'questionAsked' && event.payload.kind === 'tool')
      void api.answerQuestion({ id: event.payload.id, answer: { kind: 'tool', decision: 'allow_once' } });
  });
  return { host, api, dataDir };
}

/** Sends one message in a fresh conversation and resolves when its turn is idle again, with the time it took. */
export async function turn(host: Host, api: HostApi, text: string): Promise<number> {
  const conversation = await api.createConversation();
  let unsubscribe = () => {};
  const idle = new Promise<void>((resolve) => {
    unsubscribe = host.events.subscribe((event: HostEvent) => {
      if (
        event.name === 'conversationUpdated' &&
        event.payload.id === conversation.id &&
        event.payload.turn === 'idle' &&
        event.payload.messageCount > 1
      )
        resolve();
    });
  });
  const start = performance.now();
  await api.sendMessage({ conversationId: conversation.id, text });
  await idle;
  unsubscribe();
  const error = (await api.getConversation({ id: conversation.id }))?.lastError;
  if (error) throw new Error(`the turn failed: ${error.message}`);
  return performance.now() - start;
}

async function firstRequest(host: Host, api: HostApi, llm: ScriptedLlm, mode: ToolSearchMode) {
  await api.updateSettings({ toolSearch: mode });
  await llm.reset();
  await llm.script([{ type: 'text', text: 'Hello!' }]);
  await turn(host, api, 'hello there');
  const [request] = await llm.messageRequests();
  const tools = request.body?.tools ?? [];
  const json = JSON.stringify(tools);
  const systemBytes = Buffer.byteLength(request.body?.system ?? '');
  return { sent: tools, measured: { tools: tools.length, bytes: Buffer.byteLength(json), tokens: encode(json).length, systemBytes } };
}

async function stop(fleet: { host: Host; dataDir: string }): Promise<void> {
  await fleet.host.dispose();
  fs.rmSync(fleet.dataDir, { recursive: true, force: true });
}

/** The index a turn builds, over the definitions a request carried: build time, search p95, heap per 1,000 tools. */
function measureIndex(tools: { name: string; description?: string; input_schema: Record<string, unknown> }[], rounds: number) {
  const searchable = tools.map((tool) => {
    const [serverName, toolName] = tool.name.split('__');
    return {
      name: tool.name,
      serverName,
      toolName: toolName ?? tool.name,
      description: tool.description,
      paramNames: paramNamesOf(tool.input_schema),
    };
  });
  const buildMs: number[] = [];
  const buildCpuMs: number[] = [];
  for (let i = 0; i < rounds * 5; i++) {
    const cpu = cpuMs();
    const start = performance.now();
    new ToolIndex(searchable);
    buildMs.push(performance.now() - start);
    buildCpuMs.push(cpuMs() - cpu);
  }
  const index = new ToolIndex(searchable);
  const latencies: number[] = [];
  const cpuLatencies: number[] = [];
  for (let i = 0; i < 500; i++) {
    const cpu = cpuMs();
    const start = performance.now();
    index.search(QUERIES[i % QUERIES.length], 5);
    latencies.push(performance.now() - start);
    cpuLatencies.push(cpuMs() - cpu);
  }
  latencies.sort((a, b) => a - b);
  cpuLatencies.sort((a, b) => a - b);
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = Array.from({ length: 5 }, () => new ToolIndex(searchable));
  gc();
  const heapPerIndex = (process.memoryUsage().heapUsed - before) / kept.length;
  return {
    buildMs,
    buildCpuMs,
    searchP95Ms: latencies[Math.floor(latencies.length * 0.95)],
    searchCpuP95Ms: cpuLatencies[Math.floor(cpuLatencies.length * 0.95)],
    heapPer1000ToolsKB: heapPerIndex / 1024 / (tools.length / 1000),
  };
}

export async function runToolSearch({ rounds, quick }: { rounds: number; quick: boolean }): Promise<ToolSearchResult> {
  const llm = await startScriptedLlm();
  try {
    const fleets: FleetResult[] = [];
    const everything = await startFleet(
      llm,
      Array.from({ length: 12 }, (_, i) => ({ name: `everything-${i + 1}`, command: process.execPath, args: [EVERYTHING, 'stdio'] })),
    );
    const upFrontMs: number[] = [];
    const searchedMs: number[] = [];
    try {
      const off = await firstRequest(everything.host, everything.api, llm, 'off');
      const on = await firstRequest(everything.host, everything.api, llm, 'automatic');
      // Item 6 of issue #38: instructions shared by twelve copies go once, and only with one of their tools.
      for (const server of (await everything.api.getSnapshot()).servers)
        await everything.api.setServerInstructions({ serverId: server.config.id, send: true });
      const instructionsOn = {
        on: (await firstRequest(everything.host, everything.api, llm, 'automatic')).measured,
        off: (await firstRequest(everything.host, everything.api, llm, 'off')).measured,
      };
      fleets.push({ label: '12× server-everything', off: off.measured, on: on.measured, instructionsOn });
      const upFront: ScriptStep[] = [
        { type: 'tool_use', calls: [{ nameEndsWith: '__get-sum', input: { a: 2, b: 3 } }] },
        { type: 'text', text: 'It is 5.' },
      ];
      const searched: ScriptStep[] = [
        { type: 'find_tool', nameEndsWith: '__get-sum', query: 'sum', input: { a: 2, b: 3 } },
        { type: 'text', text: 'It is 5.' },
      ];
      // Arms alternate; the first pair warms both paths up and is not counted.
      // A turn is a few hundred ms against a noise of tens: ten pairs (three with --quick).
      for (let round = 0; round <= (quick ? 3 : 10); round++) {
        await everything.api.updateSettings({ toolSearch: 'off' });
        await llm.script(upFront);
        const a = await turn(everything.host, everything.api, 'What is 2 + 3?');
        await everything.api.updateSettings({ toolSearch: 'automatic' });
        await llm.script(searched);
        const b = await turn(everything.host, everything.api, 'What is 2 + 3?');
        if (round > 0) {
          upFrontMs.push(a);
          searchedMs.push(b);
        }
      }
    } finally {
      await stop(everything);
    }

    const forty = await startFleet(
      llm,
      Array.from({ length: quick ? 10 : 50 }, (_, i) => ({
        name: `tracker-${i + 1}`,
        command: process.execPath,
        args: [FORTY],
        env: [{ key: 'FORTY_TOOLS_TOPIC', value: `project${i + 1}` }],
      })),
    );
    let index: ReturnType<typeof measureIndex>;
    let indexTools: number;
    try {
      const off = await firstRequest(forty.host, forty.api, llm, 'off');
      const on = await firstRequest(forty.host, forty.api, llm, 'automatic');
      fleets.push({ label: `${quick ? 10 : 50} × forty-tools`, off: off.measured, on: on.measured });
      indexTools = off.sent.length;
      index = measureIndex(off.sent, rounds);
    } finally {
      await stop(forty);
    }
    return { fleets, indexTools, ...index, upFrontMs, searchedMs };
  } finally {
    await llm.stop();
  }
}
