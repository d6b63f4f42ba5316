/**
 * The sandbox tests' common parts: real temp folders, the probe fixture run sandboxed and unsandboxed
 * side by side, and a look at live processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { SandboxPolicy } from '@contract';
import { fixture, type TestScope } from '../../../test-support/fixtures';
import type { ProcessSpec } from '../../servers/process/stdio-process';

/**
 * What the probes drive of the roots harness (roots/test-support), which the tests pass in: written
 * out here because an area's test helpers do not import another area's.
 */
export interface ProbeHarness {
  call(method: 'addRoot', input: { path: string }): Promise<{ id: string }>;
  call(method: 'setRootSharing', input: { serverId: string; mode: 'subset'; rootIds: string[] }): Promise<unknown>;
  addServer(name: string, spec: ProcessSpec, sandbox?: SandboxPolicy): string;
  start(id: string): Promise<void>;
  tool(id: string, name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  text(result: CallToolResult): string;
}

export const BLOCKED: SandboxPolicy = { enabled: true, network: 'blocked', hosts: [] };

/** A real temp folder (symlinks resolved) named `name`, holding `files`, removed when the test ends. */
export function folder(scope: TestScope, name: string, files: Record<string, string> = {}): string {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-sandbox-')));
  scope.defer(() => fs.rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

/** The probe twice, sandboxed and not, both sharing exactly `shared`; started. */
export async function probes(h: ProbeHarness, shared: string, sandbox: SandboxPolicy = BLOCKED): Promise<{ boxed: string; open: string }> {
  const root = await h.call('addRoot', { path: shared });
  const boxed = h.addServer('boxed', fixture('sandbox-probe.mjs'), sandbox);
  const open = h.addServer('open', fixture('sandbox-probe.mjs'));
  for (const id of [boxed, open]) await h.call('setRootSharing', { serverId: id, mode: 'subset', rootIds: [root.id] });
  await Promise.all([h.start(boxed), h.start(open)]);
  return { boxed, open };
}

export const say = async (h: ProbeHarness, id: string, tool: string, args: Record<string, unknown>) => h.text(await h.tool(id, tool, args));

/** Live processes whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      return cmdline.includes(marker) && state !== 'Z' ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}
