import { entryMatches, type LogEntry, type LogLevel } from '@contract';

/** What the user narrowed the view to. Empty strings mean "no filter". */
export interface LogViewFilters {
  minLevel: LogLevel | '';
  text: string;
  method: string;
}

export const NO_FILTERS: LogViewFilters = { minLevel: '', text: '', method: '' };

/**
 * Every server's live entries of one stream merged by seq (the order the host saw them): the
 * "All servers" view. Each list is already in seq order.
 */
export function mergeLive(lists: readonly (readonly LogEntry[])[]): LogEntry[] {
  const present = lists.filter((list) => list.length > 0);
  if (present.length <= 1) return present[0] ? [...present[0]] : [];
  return present.flat().sort((a, b) => a.seq - b.seq);
}

/** Most rows one view holds (history pages plus live entries); the oldest go first. */
export const ROW_CAP = 20_000;

/** The filter as the host and `entryMatches` take it (empty parts left out). */
export function hostFilter(filters: LogViewFilters): { minLevel?: LogLevel; text?: string; method?: string } {
  return {
    ...(filters.minLevel ? { minLevel: filters.minLevel } : {}),
    ...(filters.text.trim() ? { text: filters.text.trim() } : {}),
    ...(filters.method.trim() ? { method: filters.method.trim() } : {}),
  };
}

/**
 * The rows a view shows: what the host returned for the filter (history), then the live entries
 * newer than that, filtered with the current filter. History loaded for another filter is filtered
 * again too (so typing narrows the list at once, before the host answers the new query); history
 * loaded for this filter is kept whole: the host also matched text inside full messages, which the
 * entries here do not carry. Bounded by ROW_CAP.
 */
export function visibleRows(
  history: readonly LogEntry[],
  live: readonly LogEntry[],
  filters: LogViewFilters,
  historyMatches = false,
): LogEntry[] {
  const filter = hostFilter(filters);
  const newest = history.length > 0 ? history[history.length - 1].seq : 0;
  const rows: LogEntry[] = historyMatches ? [...history] : history.filter((entry) => entryMatches(entry, filter));
  // Live is sorted by seq: skip what history already has with a binary search, not a scan.
  let low = 0;
  let high = live.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (live[mid].seq <= newest) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < live.length; i++) if (entryMatches(live[i], filter)) rows.push(live[i]);
  return rows.length > ROW_CAP ? rows.slice(rows.length - ROW_CAP) : rows;
}

/** Live entries matching the filter that arrived after `afterSeq` (the "N new" count while paused). */
export function countNewer(live: readonly LogEntry[], afterSeq: number, filters: LogViewFilters): number {
  const filter = hostFilter(filters);
  let n = 0;
  for (let i = live.length - 1; i >= 0 && live[i].seq > afterSeq; i--) if (entryMatches(live[i], filter)) n += 1;
  return n;
}

/** The window of rows a fixed-row-height list renders for a scroll position. */
export function rowWindow(
  count: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  overscan = 8,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(viewportHeight / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end: Math.max(start, end) };
}
