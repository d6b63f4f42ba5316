/**
 * Sandboxed servers in `npm run bench` (issue #31): the same server (server-everything, stdio) in one
 * host, once inside its bubblewrap sandbox (network blocked, no folders shared) and once without,
 * arms alternating. Measures start → ready (Start until the view says Ready: bubblewrap builds the
 * sandbox before Node even starts), tool-call p50 (the model's path through the core: after the
 * start the sandbox costs nothing per call, the pipes are the same), and the memory the sandbox adds
 * (VmRSS of the whole process group: bubblewrap and its PID-namespace init besides the server).
 * A third arm (issue #43) runs it sandboxed with the network allowed: its own network namespace, the
 * host-filter proxy as its way out, and the relay to it started (on Node) before the server; its
 * memory is also given as PSS (the relay's Node shares its program's pages with the server's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { listGroupMembers } from '../../src-main/core/servers/process/process-tree';
import { sandboxSupport } from '../../src-main/core/sandbox/sandbox-support';
import { waitFor } from '../../src-main/core/servers/wait';
import { REPO } from '../lib/servers';

export interface SandboxArmSample {
  startMs: number;
  callP50Ms: number;
  /** VmRSS of every process in the server's group, KB. */
  groupRssKb: number;
  /** PSS of the same processes (shared pages split between their users), KB. */
  groupPssKb: number;
}

export interface SandboxBenchResult {
  sandboxed: SandboxArmSample[];
  /** Sandboxed, network allowed through the proxy. */
  proxied: SandboxArmSample[];
  plain: SandboxArmSample[];
}

type Arm = keyof SandboxBenchResult;

const EVERYTHING = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function groupKb(pgid: number, file: 'status' | 'smaps_rollup', field: RegExp): number {
  return listGroupMembers(pgid).reduce((sum, member) => {
    const text = fs.readFileSync(`/proc/${member.pid}/${file}`, 'utf8');
    return sum + Number(field.exec(text)?.[1] ?? 0);
  }, 0);
}

export async function runSandbox({ rounds, calls = 300 }: { rounds: number; calls?: number }): Promise<SandboxBenchResult> {
  const support = sandboxSupport();
  if (!support.supported) throw new Error(support.reason);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-sandbox-'));
  const host = createHost({ mode: 'web', dataDir, appVersion: 'bench', connectionDefaults: { timeouts: { pingIntervalMs: 0 } } });
  const api = inProcessApi(host.handlers);
  const add = async (name: string, sandboxed: boolean, network: 'blocked' | 'allowed' = 'blocked') => {
    const view = await api.addServer({
      name,
      command: process.execPath,
      args: [EVERYTHING],
      enabled: false,
      sandbox: { enabled: sandboxed, network, hosts: [] },
    });
    await api.setRootSharing({ serverId: view.config.id, mode: 'none', rootIds: [] });
    return view.config.id;
  };
  const arms = { sandboxed: await add('boxed', true), proxied: await add('proxied', true, 'allowed'), plain: await add('plain', false) };
  const result: SandboxBenchResult = { sandboxed: [], proxied: [], plain: [] };
  // Each round in another order, so no arm always goes first (or last).
  const orders: Arm[][] = [
    ['sandboxed', 'proxied', 'plain'],
    ['plain', 'sandboxed', 'proxied'],
    ['proxied', 'plain', 'sandboxed'],
  ];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const arm of orders[round % orders.length]) {
        const serverId = arms[arm];
        const started = performance.now();
        const view = await api.startServer({ id: serverId });
        await waitFor(
          async () =>
            (await host.handlers.getSnapshot(undefined)).servers.find((s) => s.config.id === serverId)?.runtime.status === 'ready',
          {
            timeoutMs: 60_000,
            intervalMs: 1,
            what: `the ${arm} server`,
          },
        );
        const startMs = performance.now() - started;
        // "Always allow" is pinned to the tool's definition, known once the server listed its tools.
        if (round < 2) await api.setToolPolicy({ serverId, tool: 'echo', policy: 'allow' });
        const times: number[] = [];
        for (let i = 0; i < calls; i++) {
          const at = performance.now();
          const done = await host.tools.callToolWithConsent({ serverId, tool: 'echo', args: { message: 'bench' }, origin: 'model' });
          if (done.status !== 'ok') throw new Error(`echo (${arm}): ${done.status}`);
          times.push(performance.now() - at);
        }
        times.sort((a, b) => a - b);
        const pid =
          (await host.handlers.getSnapshot(undefined)).servers.find((s) => s.config.id === serverId)?.runtime.pid ?? view.runtime.pid;
        result[arm].push({
          startMs,
          callP50Ms: times[Math.floor(times.length / 2)],
          groupRssKb: pid ? groupKb(pid, 'status', /VmRSS:\s+(\d+)/) : 0,
          groupPssKb: pid ? groupKb(pid, 'smaps_rollup', /Pss:\s+(\d+)/) : 0,
        });
        await api.stopServer({ id: serverId });
      }
    }
  } finally {
    await host.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}
