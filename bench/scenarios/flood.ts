/**
 * A server flooding notifications, in `npm run bench` (bench/areas.ts): each sample is a fresh process
 * (bench/lib/flood-sample.ts) with a real host and two servers, arms alternating — `flood` (the
 * notification-flood fixture writes notifications/message and progress as fast as stdout takes them
 * for `seconds`) and `quiet` (the same call, sending nothing: the baseline). Per arm, medians of:
 * host RSS growth during the call, how long after the flood ended the flooding server's response
 * arrived, and the other server's call latency (p50, p95) meanwhile.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { FloodSample } from '../lib/flood-sample';
import { builtScript } from '../lib/as-built';
import { REPO } from '../lib/servers';

export interface FloodBenchResult {
  flood: FloodSample[];
  quiet: FloodSample[];
}

function runSample(arm: 'flood' | 'quiet', seconds: number): FloodSample {
  const script = builtScript(path.join(REPO, 'bench', 'lib', 'flood-sample.ts'));
  const child = spawnSync(process.execPath, ['--expose-gc', script, arm, String(seconds)], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@flood '));
  const parsed = line ? (JSON.parse(line.slice('@@flood '.length)) as FloodSample | { error: string }) : undefined;
  if (!parsed || 'error' in parsed) {
    throw new Error(`flood sample (${arm}) failed: ${parsed && 'error' in parsed ? parsed.error : child.stderr.slice(-2000)}`);
  }
  return parsed;
}

/** `rounds` × (flood, quiet), alternating. */
export function runFlood({ rounds, seconds }: { rounds: number; seconds: number }): FloodBenchResult {
  const result: FloodBenchResult = { flood: [], quiet: [] };
  for (let round = 0; round < rounds; round++) {
    result.flood.push(runSample('flood', seconds));
    result.quiet.push(runSample('quiet', seconds));
  }
  return result;
}

/** The p-th percentile of values (0..1). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}
