/**
 * Where did the main thread go? Summarizes a .cpuprofile (from `npm run bench -- --profile`):
 * the longest uninterrupted busy stretch (the worst stall), and within it the self time and the
 * inclusive time of the heaviest functions.
 *
 * Usage: npx tsx bench/profile.ts FILE.cpuprofile [--top 25] [--whole] [--after MS] [--rank K]
 *   --after MS  ignore stretches that begin in the first MS ms (a process's own boot)
 *   --rank K    summarize the K-th longest stretch instead of the longest (1 = longest)
 */
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('Usage: npx tsx bench/profile.ts FILE.cpuprofile [--top N] [--whole] [--after MS] [--rank K]');
  process.exit(2);
}
const top = Number(args[args.indexOf('--top') + 1]) || 25;
const whole = args.includes('--whole');
const option = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || 0 : 0);
const afterUs = option('--after') * 1000;
const rank = Math.max(1, option('--rank'));
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);
const idle = (id: number) => ['(idle)'].includes(byId.get(id)!.callFrame.functionName);

// Sample i covers timeDeltas[i+1] µs (the delta to the next sample).
const t: number[] = [];
let acc = 0;
for (const d of profile.timeDeltas) t.push((acc += d));
let best = { from: 0, to: 0, us: 0 };
if (whole) best = { from: 0, to: profile.samples.length, us: acc };
else {
  const stretches: (typeof best)[] = [];
  let start = -1;
  for (let i = 0; i <= profile.samples.length; i++) {
    const busy = i < profile.samples.length && !idle(profile.samples[i]);
    if (busy && start < 0) start = i;
    if (!busy && start >= 0) {
      const us = t[i - 1] - t[start] + (profile.timeDeltas[i] ?? 0);
      if (t[start] >= afterUs) stretches.push({ from: start, to: i, us });
      start = -1;
    }
  }
  stretches.sort((a, b) => b.us - a.us);
  console.log('Longest busy stretches (ms, starting at ms):');
  for (const s of stretches.slice(0, 8)) console.log(`${(s.us / 1000).toFixed(1).padStart(9)} ms  at ${(t[s.from] / 1000).toFixed(0)}`);
  best = stretches[rank - 1] ?? best;
}

const label = (n: Node) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url ? `${path.relative(process.cwd(), url.replace('file://', ''))}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
};
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (let i = best.from; i < best.to; i++) {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  let id: number | undefined = profile.samples[i];
  self.set(label(byId.get(id)!), (self.get(label(byId.get(id)!)) ?? 0) + dt);
  const seen = new Set<string>();
  for (; id !== undefined; id = parent.get(id)) {
    const l = label(byId.get(id)!);
    if (seen.has(l) || IDLE.has(byId.get(id)!.callFrame.functionName) || l.startsWith('(root)')) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
  }
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [l, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms.toFixed(1).padStart(9)} ms  ${l}`);
};
console.log(`${whole ? 'Whole profile' : 'Longest busy stretch'}: ${(best.us / 1000).toFixed(1)} ms (${best.to - best.from} samples)`);
show('Self time', self);
show('Inclusive time', inclusive);
