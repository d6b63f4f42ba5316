/** The metrics (with the targets), their evaluation from samples, and the summary table. */
import { fmtRatio, fmtSummary, ratio, summary, type RatioSummary, type Summary } from './stats';
import type { Arm, Scenario, Task } from './wire';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Result = Record<string, any>;

export interface Sample {
  task: Task;
  ok: boolean;
  result?: Result;
  error?: string;
  wallMs: number;
  /** Processes the orchestrator's own sweep still found and killed after the worker ended. */
  sweptByOrchestrator: number;
  /** 1-minute load average after the sample, and the CPU busy fraction (others) just before it. */
  load1?: number;
  busyBefore?: number;
}

export interface MetricDef {
  id: string;
  label: string;
  scenario: Scenario;
  n: number;
  unit: 'ms' | 'MB' | 'KB' | '';
  /** What the A (`host`) and B (`sdk`) arms stand for in this metric. */
  arms: [string, string];
  value: (r: Result) => number | undefined;
  /** `ratio`: median(A)/median(B) ≤ max. `zero`: every A sample is 0. `info`: no target. */
  target: { kind: 'ratio'; max: number } | { kind: 'zero' } | { kind: 'info' };
}

export interface MetricResult {
  def: Omit<MetricDef, 'value'>;
  a: Summary | undefined;
  b: Summary | undefined;
  aValues: (number | undefined)[];
  bValues: (number | undefined)[];
  ratio: RatioSummary | undefined;
  mark: 'PASS' | 'MISS' | 'n/a' | '';
  /** The run-by-run ratio range straddles the target: the verdict is within run-to-run noise. */
  noisy: boolean;
}

export interface PlanSizes {
  readyNs: number[];
  memN: number;
  stallN: number;
  quitN: number;
  uiN: number;
}

const ms = 'ms' as const;

export function metricDefs(p: PlanSizes): MetricDef[] {
  const hs: [string, string] = ['host', 'SDK'];
  const defs: MetricDef[] = p.readyNs.map((n) => ({
    id: `ready@${n}`,
    label: `1. all-ready, N=${n}`,
    scenario: 'ready',
    n,
    unit: ms,
    arms: hs,
    value: (r) => r.readyMs,
    target: { kind: 'ratio', max: 1.05 },
  }));
  defs.push(
    {
      id: 'ui',
      label: `2. UI answers getSnapshot, ${p.uiN} cfg vs 0`,
      scenario: 'ui',
      n: p.uiN,
      unit: ms,
      arms: [`${p.uiN} cfg`, '0 cfg'],
      value: (r) => r.snapshotMs,
      target: { kind: 'ratio', max: 1.1 },
    },
    {
      id: 'ui.rtt',
      label: '   worst getSnapshot RTT while servers start',
      scenario: 'ui',
      n: p.uiN,
      unit: ms,
      arms: [`${p.uiN} cfg`, '0 cfg'],
      value: (r) => r.rtt?.max,
      target: { kind: 'info' },
    },
    {
      id: 'ui.allReady',
      label: '   web host: all servers ready',
      scenario: 'ui',
      n: p.uiN,
      unit: ms,
      arms: [`${p.uiN} cfg`, '0 cfg'],
      value: (r) => r.marks?.allReady,
      target: { kind: 'info' },
    },
    {
      id: 'mem.rss',
      label: `3. RSS Δ per server (N=${p.memN})`,
      scenario: 'ready',
      n: p.memN,
      unit: 'KB',
      arms: hs,
      value: (r) => r.mem?.rssPerServer,
      target: { kind: 'ratio', max: 2 },
    },
    {
      id: 'mem.heap',
      label: `   heap Δ per server (N=${p.memN})`,
      scenario: 'ready',
      n: p.memN,
      unit: 'KB',
      arms: hs,
      value: (r) => r.mem?.heapPerServer,
      target: { kind: 'ratio', max: 2 },
    },
    {
      id: 'mem.child',
      label: `   child VmRSS per server (N=${p.memN})`,
      scenario: 'ready',
      n: p.memN,
      unit: 'MB',
      arms: hs,
      value: (r) => r.mem?.childRssPerServer,
      target: { kind: 'ratio', max: 1 },
    },
    {
      id: 'quit',
      label: `4. quit, ${p.quitN} servers (1 ignores SIGTERM)`,
      scenario: 'quit',
      n: p.quitN,
      unit: ms,
      arms: hs,
      value: (r) => r.quitMs,
      target: { kind: 'ratio', max: 1 },
    },
    {
      id: 'quit.left',
      label: '   processes left at quit',
      scenario: 'quit',
      n: p.quitN,
      unit: '',
      arms: hs,
      value: (r) => r.leaked,
      target: { kind: 'zero' },
    },
    {
      id: 'stall.start',
      label: `5. worst stall, ${p.stallN} servers start`,
      scenario: 'ready',
      n: p.stallN,
      unit: ms,
      arms: hs,
      value: (r) => r.stall?.worstMs,
      target: { kind: 'ratio', max: 1 },
    },
    {
      id: 'stall.big',
      label: '   worst stall, 10 MB result arrives',
      scenario: 'big',
      n: 1,
      unit: ms,
      arms: hs,
      value: (r) => r.stall?.worstMs,
      target: { kind: 'ratio', max: 1 },
    },
    {
      id: 'big.call',
      label: '   10 MB tools/call duration',
      scenario: 'big',
      n: 1,
      unit: ms,
      arms: hs,
      value: (r) => r.callMs,
      target: { kind: 'info' },
    },
  );
  return defs;
}

function valuesFor(samples: Sample[], def: MetricDef, arm: Arm, runs: number): (number | undefined)[] {
  const out: (number | undefined)[] = Array.from({ length: runs }, () => undefined);
  for (const s of samples) {
    if (s.task.scenario !== def.scenario || s.task.n !== def.n || s.task.arm !== arm || !s.ok || !s.result) continue;
    const v = def.value(s.result);
    if (typeof v === 'number' && Number.isFinite(v)) out[s.task.run - 1] = v;
  }
  return out;
}

export function evaluate(samples: Sample[], defs: MetricDef[], runs: number): MetricResult[] {
  return defs
    .filter((def) => samples.some((s) => s.task.scenario === def.scenario && s.task.n === def.n))
    .map((def) => {
      const aValues = valuesFor(samples, def, 'host', runs);
      const bValues = valuesFor(samples, def, 'sdk', runs);
      const a = summary(aValues.filter((x): x is number => x !== undefined));
      const b = summary(bValues.filter((x): x is number => x !== undefined));
      const r = ratio(aValues, bValues);
      let mark: MetricResult['mark'] = '';
      let noisy = false;
      if (def.target.kind === 'ratio') {
        mark = r ? (r.ratio <= def.target.max ? 'PASS' : 'MISS') : 'n/a';
        noisy = r !== undefined && r.min <= def.target.max && r.max > def.target.max;
      } else if (def.target.kind === 'zero') {
        mark = a ? (a.max === 0 ? 'PASS' : 'MISS') : 'n/a';
      }
      const { value: _value, ...plain } = def;
      return { def: plain, a, b, aValues, bValues, ratio: r, mark, noisy };
    });
}

function targetText(def: Omit<MetricDef, 'value'>): string {
  if (def.target.kind === 'ratio') return `≤ ${def.target.max.toFixed(2)}×`;
  if (def.target.kind === 'zero') return 'host = 0';
  return '(info)';
}

/** The summary table as text. */
export function table(results: MetricResult[]): string {
  const head = ['Metric', 'A (host / N cfg)', 'B (SDK / 0 cfg)', 'A/B ratio [run range]', 'Target', ''];
  const rows = results.map((m) => [
    m.def.label,
    `${m.def.arms[0]}: ${fmtSummary(m.a, m.def.unit)}`,
    `${m.def.arms[1]}: ${fmtSummary(m.b, m.def.unit)}`,
    m.def.target.kind === 'zero' ? '' : fmtRatio(m.ratio),
    targetText(m.def),
    m.mark + (m.noisy ? ' (noise)' : ''),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join(' │ ')
      .trimEnd();
  return [line(head), widths.map((w) => '─'.repeat(w)).join('─┼─'), ...rows.map(line)].join('\n');
}
