/**
 * Orchestrator ⇄ worker protocol. Each sample runs in a fresh worker process (clean heap, cold
 * caches, no timers or handles left from an earlier sample); the worker reports on stdout with
 * prefixed JSON lines: `@@pids` as soon as it knows processes it started (so the orchestrator can
 * clean up even after a crash) and one `@@result` at the end.
 */
import type { ProcRef } from './procs';

export type Scenario = 'ready' | 'quit' | 'big' | 'ui';
/** `host`/`sdk` for the comparisons; for `ui`, `host` = N servers configured, `sdk` slot = none. */
export type Arm = 'host' | 'sdk';

export interface Task {
  scenario: Scenario;
  arm: Arm;
  /** Number of servers. */
  n: number;
  light: boolean;
  hostStart: 'launch' | 'add';
  run: number;
  /** `ui` only: the web host entry to run, and the seeder bundled with it. */
  webEntry?: string;
  seedEntry?: string;
  /** `ui` only (`--profile`): write a .cpuprofile of the web host (host arm) into this directory. */
  profileDir?: string;
}

export const PIDS_PREFIX = '@@pids ';
export const RESULT_PREFIX = '@@result ';

export function emitPids(refs: ProcRef[]): void {
  if (refs.length > 0) process.stdout.write(`${PIDS_PREFIX}${JSON.stringify(refs)}\n`);
}

export function emitResult(result: Record<string, unknown>): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** Forces full collections (the worker runs with --expose-gc). */
export function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the worker with --expose-gc');
  gc();
  gc();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
