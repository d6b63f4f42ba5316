/**
 * Cleaning up after a host that died without stopping its servers.
 *
 * While a server runs we keep a record of its process group (pid, pgid, start time) in a store
 * that survives the host (SQLite, wired elsewhere). On the next launch, `reapLeftovers` kills the
 * groups that are still around. A pid alone is not an identity — pids are reused — so a group is
 * only signalled when its leader's start time still matches the record (or the leader is gone,
 * see below). Never a stranger's process.
 */
import { isGroupAlive, isProcessAlive, readProcessStartTime, signalGroup } from './process-tree';
import type { StdioProcess } from './stdio-process';
import { sleep } from '../wait';

/** One live server process group, as persisted. */
export interface LiveProcessRecord {
  serverId: string;
  pid: number;
  /** Process group id (= pid: servers lead their own group). */
  pgid: number;
  /** /proc/<pid>/stat field 22 (Linux) or `ps -o lstart` (macOS); null when unknown. */
  startTime: string | null;
  /** For logs: what was running. */
  command: string;
  /** Epoch ms. */
  recordedAt: number;
}

/** Where live-process records are kept. The SQLite-backed implementation lives elsewhere. */
export interface LiveProcessStore {
  add(record: LiveProcessRecord): void | Promise<void>;
  remove(pid: number): void | Promise<void>;
  list(): LiveProcessRecord[] | Promise<LiveProcessRecord[]>;
}

/** A store that forgets everything with the process: for tests and for hosts without a database. */
export class InMemoryLiveProcessStore implements LiveProcessStore {
  private readonly records = new Map<number, LiveProcessRecord>();
  add(record: LiveProcessRecord): void {
    this.records.set(record.pid, record);
  }
  remove(pid: number): void {
    this.records.delete(pid);
  }
  list(): LiveProcessRecord[] {
    return [...this.records.values()];
  }
}

/** The record for a freshly spawned server process. */
export function recordFor(serverId: string, proc: StdioProcess, command: string, now = Date.now()): LiveProcessRecord {
  return { serverId, pid: proc.pid, pgid: proc.pgid ?? proc.pid, startTime: proc.startTime ?? null, command, recordedAt: now };
}

/** What `reapLeftovers` did about one record. */
export type ReapOutcome =
  /** The leader was still running (start time matched): the group was killed. */
  | 'killed'
  /** The leader had exited but group members (grandchildren) were left: they were killed. */
  | 'orphans-killed'
  /** Nothing of the group is left. */
  | 'gone'
  /** The pid now belongs to another process: left alone. */
  | 'pid-reused'
  /** No start time to compare (record or platform): left alone rather than risk a stranger. */
  | 'unverifiable'
  /** Still alive after SIGKILL (e.g. stuck in uninterruptible I/O). */
  | 'survived';

/** One record and what was done about it. */
export interface ReapResult {
  record: LiveProcessRecord;
  outcome: ReapOutcome;
}

/** Signal escalation timings of the reaper. */
export interface ReapOptions {
  /** After SIGTERM, how long before SIGKILL (default 1 s). */
  termGraceMs?: number;
  /** After SIGKILL, how long to wait for the group to vanish (default 3 s). */
  killWaitMs?: number;
  platform?: NodeJS.Platform;
}

/**
 * Kills the leftover process groups described by `records` (see the module comment for the
 * identity rules). Groups are handled concurrently; the results are in `records` order.
 */
export function reapLeftovers(records: LiveProcessRecord[], options: ReapOptions = {}): Promise<ReapResult[]> {
  return Promise.all(records.map(async (record) => ({ record, outcome: await reapOne(record, options) })));
}

/** Reaps everything in `store` and removes the records that no longer need watching. */
export async function reapRecordedLeftovers(store: LiveProcessStore, options: ReapOptions = {}): Promise<ReapResult[]> {
  const results = await reapLeftovers(await store.list(), options);
  for (const { record, outcome } of results) if (outcome !== 'survived') await store.remove(record.pid);
  return results;
}

async function reapOne(record: LiveProcessRecord, options: ReapOptions): Promise<ReapOutcome> {
  const platform = options.platform ?? process.platform;
  const current = readProcessStartTime(record.pid, platform);
  if (current !== undefined) {
    if (record.startTime === null) return 'unverifiable';
    if (current !== record.startTime) return 'pid-reused';
  }
  // Windows has no groups to check independently of the leader; without a verified start time
  // we do not kill a tree by pid.
  if (platform === 'win32') return current === undefined ? 'gone' : 'unverifiable';
  // Leader verified, or gone. If gone: the kernel does not reuse a number while it is still some
  // group's id, so whatever is left in group `pgid` is what our server started.
  const leaderAlive = current !== undefined && isProcessAlive(record.pid, platform);
  if (!leaderAlive && !isGroupAlive(record.pgid, platform)) return 'gone';

  signalGroup(record.pgid, 'SIGTERM', platform);
  if (!(await groupGone(record.pgid, options.termGraceMs ?? 1000, platform))) {
    signalGroup(record.pgid, 'SIGKILL', platform);
    if (!(await groupGone(record.pgid, options.killWaitMs ?? 3000, platform))) return 'survived';
  }
  return leaderAlive ? 'killed' : 'orphans-killed';
}

async function groupGone(pgid: number, ms: number, platform: NodeJS.Platform): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isGroupAlive(pgid, platform)) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}
