/**
 * The box is shared (other people run tests and builds on it): before each sample, wait until the
 * CPUs have been mostly idle for a 1 s window (nothing of ours runs between samples), up to a limit,
 * and report how busy they were.
 */
import fs from 'node:fs';

function cpuTimes(): { idle: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0); // idle + iowait
  return { idle, total: fields.reduce((a, b) => a + b, 0) };
}

/** Busy fraction of all CPUs over the next `ms`. */
export async function busyFraction(ms = 1000): Promise<number> {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = cpuTimes();
  const total = b.total - a.total;
  return total > 0 ? 1 - (b.idle - a.idle) / total : 0;
}

/** Waits (at most `maxMs`) for a window with less than `threshold` CPU busy; returns the last reading. */
export async function waitForQuiet(threshold = 0.25, maxMs = 30_000): Promise<{ busy: number; waitedMs: number }> {
  const started = Date.now();
  for (;;) {
    const busy = await busyFraction();
    if (busy < threshold || Date.now() - started >= maxMs) return { busy: Math.round(busy * 100) / 100, waitedMs: Date.now() - started };
  }
}
