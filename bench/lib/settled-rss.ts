/**
 * RSS once the pages a forced GC freed are back with the OS.
 *
 * Why: V8 unmaps the pages a full GC frees on a background thread, some milliseconds after `gc()`
 * returns. Read at once, RSS still counts them: after 50 servers started it counted ≈ 30 MB of
 * garbage the GC had just freed (which the process returned within 100 ms), so the per-server figure
 * depended on how much garbage the start left and how soon that thread ran, not on what the servers
 * keep. RSS is read again every `stepMs` until it has stopped falling for two reads in a row (a fall
 * under `slackBytes` counts as stopped), at most `maxReads` times.
 */
import { sleep } from './wire';

export interface SettleOptions {
  read?: () => number;
  wait?: (ms: number) => Promise<void>;
  stepMs?: number;
  slackBytes?: number;
  maxReads?: number;
}

export async function settledRss(first: number, options: SettleOptions = {}): Promise<{ rss: number; reads: number }> {
  const { read = () => process.memoryUsage.rss(), wait = sleep, stepMs = 50, slackBytes = 64 * 1024, maxReads = 20 } = options;
  let last = first;
  let still = 0;
  let reads = 0;
  while (still < 2 && reads < maxReads) {
    await wait(stepMs);
    const now = read();
    reads++;
    still = last - now < slackBytes ? still + 1 : 0;
    last = now;
  }
  return { rss: last, reads };
}
