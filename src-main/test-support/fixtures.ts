/**
 * Test helpers every suite that runs servers shares: where the fixture servers live, how to run them,
 * and the "no process left behind" assertion every test ends with.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, onTestFinished } from 'vitest';
import { isGroupAlive, isProcessAlive, listGroupMembers } from '../core/servers/process/process-tree';
import type { ProcessSpec } from '../core/servers/process/stdio-process';
import { waitFor } from '../core/servers/wait';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES_DIR = path.join(REPO_ROOT, 'e2e', 'fixtures');

/** Runs `e2e/fixtures/<name>` with the current Node (or bash for .sh fixtures). */
export function fixture(name: string, { args = [], env = {} }: { args?: string[]; env?: Record<string, string> } = {}): ProcessSpec {
  const file = path.join(FIXTURES_DIR, name);
  if (name.endsWith('.sh')) return { command: 'bash', args: [file, ...args], env: { NODE_BIN: process.execPath, ...env } };
  return { command: process.execPath, args: [file, ...args], env };
}

/** A real reference server from node_modules (`everything`, `filesystem`, `memory`). */
export function referenceServer(name: 'everything' | 'filesystem' | 'memory', args: string[] = []): ProcessSpec {
  const entry = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');
  return { command: process.execPath, args: [entry, ...args] };
}

/** Live pids in a group, for failure messages. */
function describeGroup(pgid: number): string {
  return listGroupMembers(pgid)
    .map((member) => `${member.pid}(${member.state})`)
    .join(', ');
}

/**
 * Waits (bounded) until neither `pid` nor anything in its process group is alive (zombies count
 * as gone: this sandbox's PID 1 never reaps orphans).
 */
export async function expectProcessGone(pid: number, timeoutMs = 5000): Promise<void> {
  try {
    await waitFor(() => !isProcessAlive(pid) && !isGroupAlive(pid), { timeoutMs, what: `process group ${pid} to be gone` });
  } catch {
    expect.fail(`process group ${pid} still has live members: ${describeGroup(pid)}`);
  }
}

/** Per-test cleanup: deferred teardown, then the no-leftover check for every tracked pid. */
export interface TestScope {
  /** Checks at the end of the test that this pid and its process group are gone. */
  track(pid: number | undefined): void;
  /** Runs `fn` when the test finishes (latest first), before the leftover check. */
  defer(fn: () => unknown): void;
}

/**
 * Creates a {@link TestScope}. Pass the test context's `onTestFinished` in concurrent tests
 * (the global one cannot tell concurrent tests apart).
 */
export function testScope(onFinished: (fn: () => Promise<void>) => void = onTestFinished): TestScope {
  const pids = new Set<number>();
  const cleanups: Array<() => unknown> = [];
  onFinished(async () => {
    for (const fn of cleanups.reverse()) await fn();
    for (const pid of pids) await expectProcessGone(pid);
  });
  return {
    track: (pid) => {
      if (pid !== undefined) pids.add(pid);
    },
    defer: (fn) => cleanups.push(fn),
  };
}
