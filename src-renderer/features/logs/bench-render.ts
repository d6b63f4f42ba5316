/**
 * For `npm run bench` (bench/ calls this; nothing here runs on its own): the renderer's side of
 * showing log entries, without a DOM — applying the host's batches to the store, deriving the rows
 * a view shows (with and without a filter), and windowing them. The DOM work per frame is bounded by
 * the window (a few dozen rows), so these are the costs that grow with the number of entries.
 */
import type { HostEvent, LogEntry } from '../../../src-preload/contract';
import { liveKey, logsSlice, type LogsState } from '../../stores/slices/logs-slice';
import { NO_FILTERS, rowWindow, visibleRows } from './log-view-model';
import { ROW_HEIGHT } from './log-list-metrics';

/** What one `benchLogRender` run measured (milliseconds unless named otherwise). */
export interface LogRenderBench {
  entries: number;
  batches: number;
  /** Applying every `logAppended` batch to the store slice (bounded live buffers). */
  applyMs: number;
  /** Deriving the followed view's rows and window after every batch, as a render would. */
  followMs: number;
  /** Rows in the view at the end (bounded: LIVE_CAP live, ROW_CAP overall). */
  finalRows: number;
  /** Filtering a full history of `entries` (capped at ROW_CAP rows) by a text, as typing does. */
  filterMs: number;
  /** Per keystroke, roughly: filterMs is one keystroke's worth. */
  renderedRowsPerFrame: number;
}

/**
 * Feeds `n` entries through the store in the host's batch size (250), deriving the view after each
 * batch, then filters an `n`-entry history once. `now` defaults to performance.now.
 */
export function benchLogRender(n: number, { batchSize = 250, viewportHeight = 440, now = () => performance.now() } = {}): LogRenderBench {
  const make = (seq: number): LogEntry => ({
    seq,
    serverId: 'bench',
    stream: 'output',
    ts: seq,
    level: 'info',
    text: `worker ${seq % 8}: processed item ${seq}`,
  });
  let state: LogsState = logsSlice.initial;
  let applyMs = 0;
  let followMs = 0;
  let rows: LogEntry[] = [];
  let batches = 0;
  let rendered = 0;
  for (let from = 1; from <= n; from += batchSize) {
    const entries = Array.from({ length: Math.min(batchSize, n - from + 1) }, (_, i) => make(from + i));
    const event: HostEvent = { name: 'logAppended', payload: { entries, skipped: [] } };
    let t = now();
    state = { ...state, ...logsSlice.apply!(state, event) };
    applyMs += now() - t;
    t = now();
    rows = visibleRows([], state.logLive[liveKey('bench', 'output')] ?? [], NO_FILTERS);
    const { start, end } = rowWindow(rows.length, Math.max(0, rows.length * ROW_HEIGHT - viewportHeight), viewportHeight, ROW_HEIGHT);
    rendered = end - start;
    followMs += now() - t;
    batches += 1;
  }
  const history = Array.from({ length: n }, (_, i) => make(i + 1));
  const t = now();
  visibleRows(history, [], { ...NO_FILTERS, text: 'item 9' });
  const filterMs = now() - t;
  return { entries: n, batches, applyMs, followMs, finalRows: rows.length, filterMs, renderedRowsPerFrame: rendered };
}
