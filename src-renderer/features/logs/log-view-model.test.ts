import { describe, expect, it } from 'vitest';
import type { HostEvent, LogEntry } from '@contract';
import { LIVE_CAP, liveKey, logsSlice, type LogsState } from '../../stores/slices/logs-slice';
import { countNewer, mergeLive, NO_FILTERS, ROW_CAP, rowWindow, visibleRows } from './log-view-model';

const entry = (seq: number, text = `line ${seq}`, extra: Partial<LogEntry> = {}): LogEntry => ({
  seq,
  serverId: 's1',
  stream: 'output',
  ts: 0,
  level: 'info',
  text,
  ...extra,
});

describe('visibleRows', () => {
  it('appends only the live entries newer than the history, and filters both with the current filter', () => {
    const history = [entry(1), entry(2, 'needle two'), entry(3)];
    const live = [entry(2, 'needle two'), entry(3), entry(4, 'needle four'), entry(5, 'x', { level: 'error' })];
    expect(visibleRows(history, live, NO_FILTERS).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(visibleRows(history, live, { ...NO_FILTERS, text: 'NEEDLE' }).map((e) => e.seq)).toEqual([2, 4]);
    expect(visibleRows(history, live, { ...NO_FILTERS, minLevel: 'warning' }).map((e) => e.seq)).toEqual([5]);
    expect(visibleRows([], live, NO_FILTERS).map((e) => e.seq)).toEqual([2, 3, 4, 5]);
  });

  it('keeps history the host answered for this filter whole (it matched inside full messages), and merges servers by seq', () => {
    const history = [entry(1, 'result #1 (text elsewhere)'), entry(2, 'needle two')];
    const live = [entry(3, 'needle three'), entry(4, 'no')];
    const filters = { ...NO_FILTERS, text: 'needle' };
    expect(visibleRows(history, live, filters, true).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(visibleRows(history, live, filters, false).map((e) => e.seq)).toEqual([2, 3]);
    expect(visibleRows([entry(1, 'x', { method: 'tools/call' })], [], { ...NO_FILTERS, method: 'CALL' }).map((e) => e.seq)).toEqual([1]);

    const a = [entry(1), entry(4), entry(6)];
    const b = [entry(2, 'b', { serverId: 's2' }), entry(5, 'b', { serverId: 's2' })];
    expect(mergeLive([a, [], b]).map((e) => e.seq)).toEqual([1, 2, 4, 5, 6]);
    expect(mergeLive([a])).toEqual(a);
    expect(mergeLive([])).toEqual([]);
  });

  it('keeps at most ROW_CAP rows, the newest', () => {
    const history = Array.from({ length: ROW_CAP + 10 }, (_, i) => entry(i + 1));
    const rows = visibleRows(history, [], NO_FILTERS);
    expect(rows).toHaveLength(ROW_CAP);
    expect(rows[0].seq).toBe(11);
  });

  it('counts matching arrivals after a seq, and windows a long list', () => {
    const live = [entry(1), entry(2, 'a'), entry(3, 'b'), entry(4, 'a')];
    expect(countNewer(live, 2, NO_FILTERS)).toBe(2);
    expect(countNewer(live, 1, { ...NO_FILTERS, text: 'a' })).toBe(2);
    expect(rowWindow(100_000, 0, 440, 24)).toEqual({ start: 0, end: 28 });
    expect(rowWindow(100_000, 24 * 5000, 440, 24)).toEqual({ start: 4992, end: 5028 });
    expect(rowWindow(10, 0, 440, 24)).toEqual({ start: 0, end: 10 });
  });
});

describe('logsSlice', () => {
  const apply = (state: LogsState, event: HostEvent) => ({ ...state, ...logsSlice.apply!(state, event) });

  it('keeps the newest LIVE_CAP entries per stream, counts skipped ones, and forgets cleared streams', () => {
    let state = logsSlice.initial;
    const batch = (from: number, n: number): HostEvent => ({
      name: 'logAppended',
      payload: { entries: Array.from({ length: n }, (_, i) => entry(from + i)), skipped: [{ serverId: 's1', stream: 'output', count: 7 }] },
    });
    state = apply(state, batch(1, LIVE_CAP));
    state = apply(state, batch(LIVE_CAP + 1, 10));
    const live = state.logLive[liveKey('s1', 'output')];
    expect(live).toHaveLength(LIVE_CAP);
    expect(live.at(-1)?.seq).toBe(LIVE_CAP + 10);
    expect(state.logSkipped[liveKey('s1', 'output')]).toBe(14);
    state = apply(state, { name: 'logsCleared', payload: { serverId: 's1', stream: 'output' } });
    expect(state.logLive[liveKey('s1', 'output')]).toBeUndefined();
    expect(state.logClearCount).toBe(1);
    state = apply(state, { name: 'logLevelChanged', payload: { serverId: 's1', level: 'error' } });
    expect(state.logLevels).toEqual({ s1: 'error' });
  });
});
