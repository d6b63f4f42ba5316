/**
 * /proc helpers (Linux) for the benchmark: who a process's descendants are, how much memory a
 * process holds, and whether every process an arm started is really gone. A pid is identified by
 * (pid, start time), so a reused pid is never mistaken for a leftover, nor killed.
 */
import fs from 'node:fs';
import { readProcStat } from '../../src-main/core/servers/process/process-tree';

export interface ProcRef {
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks since boot). */
  start: string;
  pgid: number;
  ppid: number;
  /** Executable name (/proc/<pid>/stat field 2). */
  comm: string;
}

interface Stat extends ProcRef {
  state: string;
}

/** Helpers of the bench's own runtime (tsx's esbuild service), never part of an arm. */
const OWN_HELPERS = new Set(['esbuild']);

/** The core's /proc/<pid>/stat parser, in the bench's field names. */
function readStat(pid: number): Stat | undefined {
  const s = readProcStat(pid);
  return s && { pid, comm: s.comm, state: s.state, ppid: s.ppid, pgid: s.pgrp, start: s.startTime };
}

function allStats(): Stat[] {
  const out: Stat[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) out.push(stat);
  }
  return out;
}

const live = (s: Stat | undefined): s is Stat => s !== undefined && s.state !== 'Z' && s.state !== 'X';

/**
 * Every live process below `root` (children, grandchildren…), found by walking ppid links; the
 * bench's own helper processes (esbuild) are skipped.
 */
export function descendants(root: number): ProcRef[] {
  const byParent = new Map<number, Stat[]>();
  for (const s of allStats()) if (live(s)) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const found: ProcRef[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (OWN_HELPERS.has(child.comm)) continue;
      found.push({ pid: child.pid, start: child.start, pgid: child.pgid, ppid: child.ppid, comm: child.comm });
      queue.push(child.pid);
    }
  }
  return found;
}

/** True while this very process (same start time) is alive and not a zombie. */
export function isAlive(ref: Pick<ProcRef, 'pid' | 'start'>): boolean {
  const s = readStat(ref.pid);
  return live(s) && s.start === ref.start;
}

/** VmRSS of a process in bytes (0 when gone). */
export function vmRssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The recorded processes still alive, plus any live member of a recorded process group that is
 * not ours (`exceptPgids`: the bench's own groups, which SDK-spawned children share).
 */
export function leftovers(refs: ProcRef[], exceptPgids: number[] = []): ProcRef[] {
  const left = new Map<number, ProcRef>();
  for (const ref of refs) if (isAlive(ref)) left.set(ref.pid, ref);
  const groups = new Set(refs.map((r) => r.pgid).filter((g) => !exceptPgids.includes(g)));
  if (groups.size > 0) {
    for (const s of allStats()) if (live(s) && groups.has(s.pgid)) left.set(s.pid, s);
  }
  return [...left.values()];
}

/** Waits until none of `refs` is left, or `ms` passed; returns what is still left. */
export async function waitGone(refs: ProcRef[], ms: number, exceptPgids: number[] = []): Promise<ProcRef[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = leftovers(refs, exceptPgids);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** SIGKILLs exactly these processes (identity checked first). Never a group, never a stranger. */
export function killRefs(refs: ProcRef[]): number {
  let killed = 0;
  for (const ref of refs) {
    if (ref.pid === process.pid || !isAlive(ref)) continue;
    try {
      process.kill(ref.pid, 'SIGKILL');
      killed += 1;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

/** Adds newly seen processes to a de-duplicated record (keyed by pid + start time). */
export function remember(into: Map<string, ProcRef>, refs: ProcRef[]): ProcRef[] {
  const added: ProcRef[] = [];
  for (const ref of refs) {
    const key = `${ref.pid}:${ref.start}`;
    if (!into.has(key)) {
      into.set(key, ref);
      added.push(ref);
    }
  }
  return added;
}

/** Process group of this process (children spawned without `detached` share it). */
export function ownPgid(): number {
  return readStat(process.pid)?.pgid ?? -1;
}
