/**
 * Main-thread stall tracking: `monitorEventLoopDelay` (1 ms resolution) and a 1 ms `setInterval`
 * drift tracker, both running in the measured process. The worst stall is the larger of the two.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface StallReport {
  /** Worst stall seen by either tracker, ms. */
  worstMs: number;
  eldMaxMs: number;
  eldP99Ms: number;
  /** Largest gap between two 1 ms interval ticks, minus the 1 ms period. */
  driftMaxMs: number;
  /** Wall time the monitor ran, ms. */
  windowMs: number;
}

/**
 * Starts both trackers and resolves once they have ticked (so a stall right after the call is
 * seen by both, not just by the drift tracker).
 */
export async function startStallMonitor(): Promise<{ stop(): StallReport }> {
  const eld = monitorEventLoopDelay({ resolution: 1 });
  eld.enable();
  const began = performance.now();
  let last = began;
  let driftMax = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    driftMax = Math.max(driftMax, now - last - 1);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    stop() {
      const now = performance.now();
      clearInterval(timer);
      driftMax = Math.max(driftMax, now - last - 1);
      eld.disable();
      const eldMaxMs = eld.max / 1e6;
      return {
        worstMs: round(Math.max(eldMaxMs, driftMax)),
        eldMaxMs: round(eldMaxMs),
        eldP99Ms: round(eld.percentile(99) / 1e6),
        driftMaxMs: round(driftMax),
        windowMs: round(now - began),
      };
    },
  };
}

const round = (x: number) => Math.round(x * 10) / 10;
