/** Small statistics for a handful of runs: median, min–max, and paired ratios. */

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summary(values: number[]): Summary | undefined {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median, min: v[0], max: v[v.length - 1], n: v.length };
}

export interface RatioSummary {
  /** median(A) / median(B). */
  ratio: number;
  /** Range of the per-run ratios A_i / B_i (runs paired by block). */
  min: number;
  max: number;
}

/** Ratio of medians, with the range of the run-by-run ratios (pairs with a missing side are skipped). */
export function ratio(a: (number | undefined)[], b: (number | undefined)[]): RatioSummary | undefined {
  const sa = summary(a.filter((x): x is number => x !== undefined));
  const sb = summary(b.filter((x): x is number => x !== undefined));
  if (!sa || !sb || sb.median === 0) return undefined;
  const pairs: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined && y !== undefined && y !== 0) pairs.push(x / y);
  }
  return { ratio: sa.median / sb.median, min: Math.min(...pairs), max: Math.max(...pairs) };
}

/** Formats a value of `unit` compactly. */
export function fmt(x: number, unit: string): string {
  if (unit === 'MB') return (x / (1024 * 1024)).toFixed(x >= 10 * 1024 * 1024 ? 0 : 1);
  if (unit === 'KB') return (x / 1024).toFixed(0);
  if (unit === 'ms') return x >= 1000 ? x.toFixed(0) : x >= 10 ? x.toFixed(0) : x.toFixed(1);
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

export function fmtSummary(s: Summary | undefined, unit: string): string {
  if (!s) return 'n/a';
  if (s.n === 1) return `${fmt(s.median, unit)} ${unit}`.trim();
  return `${fmt(s.median, unit)} [${fmt(s.min, unit)}–${fmt(s.max, unit)}] ${unit}`.trim();
}

export function fmtRatio(r: RatioSummary | undefined): string {
  if (!r) return 'n/a';
  return `${r.ratio.toFixed(2)}× [${r.min.toFixed(2)}–${r.max.toFixed(2)}]`;
}
