import { formatBytes, type TimelineSpan, type TurnTimeline } from '@contract';

const KIND_NAMES: Record<TimelineSpan['kind'], string> = {
  turn: 'Turn',
  model: 'Model request',
  search: 'Tool search',
  tool: 'Tool call',
  consent: 'Consent wait',
  sampling: 'Sampling',
  elicitation: 'Elicitation',
  request: 'Request',
};

export const ms = (value: number | undefined) =>
  value === undefined ? 'running' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;

/** Every number of a bar, in words: its accessible name, its tooltip and the selected bar's status line. */
export function describeSpan(span: TimelineSpan): string {
  // A search's label already says what it is ("Tool search “sum”…"): not prefixed twice.
  const head = span.kind === 'search' ? span.label : `${KIND_NAMES[span.kind]}: ${span.label}`;
  const parts = [head, `starts at ${ms(span.startMs)}`, `takes ${ms(span.durationMs)}`];
  if (span.model) parts.push(`model ${span.model}`);
  if (span.inputTokens !== undefined) parts.push(`${span.inputTokens} tokens in, ${span.outputTokens ?? 0} out`);
  if (span.firstTokenMs !== undefined) parts.push(`first text after ${ms(span.firstTokenMs)}`);
  if (span.bytesOut !== undefined) parts.push(`sent ${formatBytes(span.bytesOut)}`);
  if (span.bytesIn !== undefined) parts.push(`received ${formatBytes(span.bytesIn)}`);
  if (span.status) parts.push(span.status === 'ok' ? 'succeeded' : span.status.replaceAll('_', ' '));
  return parts.join(', ');
}

/** One row of the waterfall, everything it paints worked out once per answer (not per render). */
export interface TimelineRow {
  span: TimelineSpan;
  /** How far under the turn (sampling nests under the call that caused it). */
  depth: number;
  /** The bar's words (`describeSpan`). */
  words: string;
  /** Where the bar starts and how long it is, as CSS lengths on the turn's scale. */
  left: string;
  width: string;
  duration: string;
}

export interface TimelineRows {
  /** The turn's length in ms (the longest bar's end; at least 1). */
  total: number;
  rows: TimelineRow[];
}

/** The rows of a turn's waterfall, in the turn's order of bars. */
export function timelineRows(timeline: TurnTimeline): TimelineRows {
  const spans = timeline.spans;
  let total = 1;
  for (const s of spans) total = Math.max(total, s.startMs + (s.durationMs ?? 0));
  const depth = depths(spans);
  const rows = spans.map((span) => ({
    span,
    depth: depth.get(span.id) ?? 0,
    words: describeSpan(span),
    left: `${((span.startMs / total) * 100).toFixed(3)}%`,
    // A running bar reaches the turn's end; a bar of a few µs stays visible (3px).
    width: `max(3px, ${(((span.durationMs ?? total - span.startMs) / total) * 100).toFixed(3)}%)`,
    duration: ms(span.durationMs),
  }));
  return { total, rows };
}

/** Depth of each bar under the turn. */
function depths(spans: TimelineSpan[]): Map<string, number> {
  const byId = new Map(spans.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  const of = (span: TimelineSpan): number => {
    const known = depth.get(span.id);
    if (known !== undefined) return known;
    const parent = span.parentId ? byId.get(span.parentId) : undefined;
    const value = parent ? of(parent) + 1 : 0;
    depth.set(span.id, value);
    return value;
  };
  for (const span of spans) of(span);
  return depth;
}
