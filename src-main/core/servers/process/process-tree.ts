/**
 * OS-level helpers for a server's process group: signalling it, and knowing whether anything in
 * it is still alive.
 *
 * Servers are spawned as leaders of their own process group (POSIX), so `kill(-pgid)` reaches
 * the grandchildren an `npx` or a shell wrapper starts. Liveness never relies on `kill(pid, 0)`
 * alone: that also succeeds for zombies, and orphaned grandchildren become zombies that nobody
 * reaps when PID 1 is a minimal init (containers, some sandboxes). On Linux we read /proc instead.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import treeKill from 'tree-kill';

/** The fields of /proc/<pid>/stat we use. */
export interface ProcStat {
  pid: number;
  /** Field 2: the executable name. */
  comm: string;
  /** R, S, D, Z (zombie), T, … */
  state: string;
  ppid: number;
  pgrp: number;
  /** Field 22: start time in clock ticks since boot. Together with pid it identifies a process. */
  startTime: string;
}

/** Parses /proc/<pid>/stat (Linux); undefined when the process does not exist or not on Linux. */
export function readProcStat(pid: number): ProcStat | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses,
  // so split after the *last* ')'. Fields from 3 on are then space-separated.
  const close = raw.lastIndexOf(')');
  if (close === -1) return undefined;
  const fields = raw.slice(close + 2).split(' ');
  return {
    pid,
    comm: raw.slice(raw.indexOf('(') + 1, close),
    state: fields[0],
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    startTime: fields[19],
  };
}

/**
 * A process's start time as an opaque, comparable string: /proc field 22 on Linux, `ps -o lstart`
 * on macOS. Undefined when the process is gone or the platform offers no way to tell.
 */
export function readProcessStartTime(pid: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'linux') return readProcStat(pid)?.startTime;
  if (platform === 'darwin') {
    try {
      const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 }).trim();
      return out || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Live (non-zombie) members of a process group, from /proc. Linux only; [] elsewhere. */
export function listGroupMembers(pgid: number): ProcStat[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const members: ProcStat[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue; // not a pid directory
    const stat = readProcStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(stat);
  }
  return members;
}

/**
 * Whether any non-zombie process is left in the group. On Linux from /proc; elsewhere from
 * `kill(-pgid, 0)` (macOS reaps orphans promptly, so zombies do not linger there).
 */
export function isGroupAlive(pgid: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'linux') {
    // No member at all (not even a zombie): one syscall instead of a /proc scan.
    if (!groupHasAnyMember(pgid)) return false;
    return listGroupMembers(pgid).length > 0;
  }
  if (platform === 'win32') return false; // no groups: callers track the leader's exit instead
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `kill(-pgid, 0)`: false only when the group has no member at all (zombies count as members). */
function groupHasAnyMember(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether one process is alive and not a zombie. Linux: /proc; elsewhere `kill(pid, 0)`. */
export function isProcessAlive(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'linux') {
    const stat = readProcStat(pid);
    return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Sends `signal` to a server's whole process tree: the POSIX process group led by `pid`, or on
 * Windows the tree under `pid` (tree-kill, i.e. `taskkill /T /F`). A group that is already gone
 * is not an error.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') {
    treeKill(pid, signal, () => {
      // Errors mean the tree is already gone; the caller watches the exit event.
    });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
