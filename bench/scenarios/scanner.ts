/**
 * `scanner`: the content scanner (issue #38) — throughput over a 10 MB result (windows with a turn of
 * the event loop between them, as the chat scans one), the event loop's longest wait meanwhile, and
 * the time a scan adds to a tool call: the p50 of scanning a typical small result (an echo's answer)
 * and a 50 KB one.
 */
import { performance } from 'node:perf_hooks';
import { ContentScanner } from '../../src-main/core/guard/scanner/content-scanner';

export interface ScannerResult {
  /** MB per second over a 10 MB result, per round. */
  mbPerSecond: number[];
  /** The longest gap between two event-loop turns during a 10 MB scan, per round (ms). */
  longestStallMs: number[];
  smallP50Ms: number;
  mediumP50Ms: number;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)];

function sample(chars: number): string {
  // Prose with URLs, numbers and code-like words: what results are made of, nothing flagged.
  const line = 'The build finished in 42 s; see https://ci.example/run/1234 for the log. status=ok items=17 next_page=3\n';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

export async function runScanner({ rounds }: { rounds: number }): Promise<ScannerResult> {
  const scanner = new ContentScanner();
  const big = sample(10 * 1024 * 1024);
  const mbPerSecond: number[] = [];
  const longestStallMs: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    let last = performance.now();
    let longest = 0;
    let ticking = true;
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const start = performance.now();
    const report = await scanner.scan(big);
    const ms = performance.now() - start;
    ticking = false;
    if (report.incomplete) throw new Error(`the 10 MB scan stopped early: ${report.incomplete}`);
    // The first round compiles the rules' code: not counted.
    if (round > 0) {
      mbPerSecond.push(big.length / 1024 / 1024 / (ms / 1000));
      longestStallMs.push(longest);
    }
  }
  const timed = async (text: string, times: number) => {
    const samples: number[] = [];
    for (let i = 0; i < times; i++) {
      const start = performance.now();
      await scanner.scan(text);
      samples.push(performance.now() - start);
    }
    return percentile(samples, 0.5);
  };
  return { mbPerSecond, longestStallMs, smallP50Ms: await timed('echo: hi', 2_000), mediumP50Ms: await timed(sample(50 * 1024), 200) };
}
