/**
 * Whatever a server started ends with it, even a daemon that left its process group and session
 * (`setsid`), which the group signals of a shutdown cannot reach and which outlives Remove. Each
 * launch carries a random mark in its environment, which every descendant inherits; after the
 * server's group is gone, the processes still carrying the mark are killed. A descendant that wipes
 * its environment escapes this; a sandboxed server's cannot escape anyway (its PID namespace ends
 * with it). Linux reads /proc/<pid>/environ (the user's own processes only); elsewhere there is
 * nothing to read cheaply and only the group is signalled.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';

/** The variable that marks a server's descendants. */
export const LINEAGE_VAR = 'PATCHBAY_SERVER_LINEAGE';

/** A fresh mark for one launch. */
export function newLineage(): string {
  return crypto.randomUUID();
}

/** Live processes (pids) whose environment carries `lineage`; empty off Linux. */
export function lineageMembers(lineage: string, platform: NodeJS.Platform = process.platform): number[] {
  if (platform !== 'linux') return [];
  const needle = Buffer.from(`\0${LINEAGE_VAR}=${lineage}\0`);
  const first = Buffer.from(`${LINEAGE_VAR}=${lineage}\0`);
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = fs.readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // gone, or another user's
    }
    if (environ.includes(needle) || environ.subarray(0, first.length).equals(first)) found.push(Number(entry));
  }
  return found;
}

/** Kills every process still carrying `lineage`; returns how many it signalled. */
export function sweepLineage(lineage: string, platform: NodeJS.Platform = process.platform): number {
  let killed = 0;
  for (const pid of lineageMembers(lineage, platform)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}
