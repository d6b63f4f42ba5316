/**
 * Background CPU priority for servers started together (Patchbay's launch starts every enabled
 * server at once). Fifty servers booting on a 2-core machine take every core for seconds; at equal
 * priority the app's own process gets a sliver of the CPU and the window's calls wait 100 ms and more
 * for it. Booting at background priority, the servers still get every core the app does not need, and
 * each goes back to normal priority as soon as it is ready.
 *
 * Linux only: each server runs in a session of its own (its own process group, for a clean stop),
 * and the kernel schedules a session as one group (autogroup), in which a process's own nice value
 * only weighs against its siblings. The group's nice value is what counts (`/proc/<pid>/autogroup`),
 * and setting it back to 0 needs no privilege. Elsewhere nothing changes: a process's priority, once
 * lowered, could not be raised back without privileges.
 */
import fs from 'node:fs';

/**
 * Nice value of a server's scheduling group while it starts among others. Not 19 (the lowest): booting
 * servers yield to everything else on the machine too, and the lower they go, the more any other load
 * slows the start. Measured with 50 servers on 2 cores (`npm run bench`, scenarios `ui` and `ready`):
 * 19 kept the window's worst round trip at 14–23 ms and cost the whole start 4–7 % under outside load;
 * 14 keeps it at 21–35 ms (target ≤ 50) for 1–5 %; 10 was not enough (55–60 ms).
 */
export const BACKGROUND_NICE = 14;

/**
 * Sets the nice value of `pid`'s scheduling group (Linux autogroup). False when the platform or the
 * kernel does not offer it (autogroup off, not Linux) or the process is gone.
 */
export function setGroupNice(pid: number, nice: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    return true;
  } catch {
    return false;
  }
}

/** The nice value of `pid`'s scheduling group, if the kernel says (for tests and diagnostics). */
export function readGroupNice(pid: number): number | undefined {
  try {
    const match = /nice\s+(-?\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
