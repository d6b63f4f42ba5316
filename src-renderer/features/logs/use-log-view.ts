import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { HostApi, LogEntry, LogStream } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { countNewer, hostFilter, visibleRows, type LogViewFilters } from './log-view-model';

/** Entries per host query. */
export const PAGE_SIZE = 500;
/** How long typing rests before the host is asked again (the list narrows at once regardless). */
const QUERY_DEBOUNCE_MS = 250;
/**
 * With a text filter, how long new entries rest before the host is asked again: it also finds the
 * text inside full messages, which live entries do not carry.
 */
const TEXT_REFRESH_MS = 1000;

/** A value that follows `value` once it has not changed for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The server part of a query: none asks for every server's entries. */
export function serverOf(serverId: string | undefined): { serverId?: string } {
  return serverId !== undefined ? { serverId } : {};
}

export interface LogView {
  rows: LogEntry[];
  /** The host has older matching entries. */
  hasMore: boolean;
  loading: boolean;
  /** The host answered at least once (until then an empty list means "not known yet"). */
  loaded: boolean;
  error: string | null;
  following: boolean;
  /** Matching entries that arrived while paused. */
  newWhilePaused: number;
  pause(): void;
  resume(): void;
  loadOlder(): void;
}

interface History {
  key: string;
  /** The filter the host answered (`hostFilter`, as JSON). */
  filterKey: string;
  entries: LogEntry[];
  hasMore: boolean;
}

/**
 * One server's stream (or every server's, `serverId` undefined) as a list: the host's answer to the current filter (history), followed by the
 * live entries the store receives. Following shows the tail as it grows; paused freezes the rows so
 * they can be read (and paged back), while new arrivals are only counted.
 */
export function useLogView(
  api: HostApi,
  serverId: string | undefined,
  stream: LogStream,
  filters: LogViewFilters,
  live: readonly LogEntry[],
  clearCount: number,
): LogView {
  const filterKey = JSON.stringify(hostFilter(filters));
  const settledKey = useDebounced(filterKey, QUERY_DEBOUNCE_MS);
  const [history, setHistory] = useState<History | null>(null);
  const [frozen, setFrozen] = useState<LogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const frozenRef = useRef(frozen);
  useEffect(() => {
    frozenRef.current = frozen;
  }, [frozen]);
  const searching = hostFilter(filters).text !== undefined && frozen === null;
  const textRefresh = useDebounced(searching ? (live.at(-1)?.seq ?? 0) : 0, TEXT_REFRESH_MS);
  const requestKey = `${settledKey}|${clearCount}|${reload}|${textRefresh}`;

  useEffect(() => {
    let current = true;
    api.queryLogs({ ...serverOf(serverId), stream, ...(JSON.parse(settledKey) as object), limit: PAGE_SIZE }).then(
      (page) => {
        if (!current) return;
        setHistory({ key: requestKey, filterKey: settledKey, entries: page.entries, hasMore: page.hasMore });
        setError(null);
        if (frozenRef.current) setFrozen(page.entries);
      },
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, serverId, stream, settledKey, requestKey]);

  // History the host answered for this very filter is shown whole (see `visibleRows`).
  const answered = history?.filterKey === filterKey;
  const followedRows = useMemo(() => visibleRows(history?.entries ?? [], live, filters, answered), [history, live, filters, answered]);
  const rows = useMemo(
    () => (frozen ? visibleRows(frozen, [], filters, answered) : followedRows),
    [frozen, followedRows, filters, answered],
  );
  const newestShown = frozen && frozen.length > 0 ? frozen[frozen.length - 1].seq : Number.MAX_SAFE_INTEGER;
  const newWhilePaused = useMemo(() => (frozen ? countNewer(live, newestShown, filters) : 0), [frozen, live, newestShown, filters]);

  const pause = useCallback(() => setFrozen((current) => current ?? followedRows), [followedRows]);
  const resume = useCallback(() => {
    setFrozen(null);
    setReload((n) => n + 1);
  }, []);

  const oldestSeq = rows[0]?.seq;
  const hasMore = history?.hasMore ?? false;
  const loadOlder = useCallback(() => {
    if (!hasMore || loadingOlder || oldestSeq === undefined) return;
    setLoadingOlder(true);
    api.queryLogs({ ...serverOf(serverId), stream, ...hostFilter(filters), beforeSeq: oldestSeq, limit: PAGE_SIZE }).then(
      (page) => {
        setLoadingOlder(false);
        setHistory((h) => ({
          key: h?.key ?? '',
          filterKey: h?.filterKey ?? '',
          entries: [...page.entries, ...(h?.entries ?? [])],
          hasMore: page.hasMore,
        }));
        setFrozen((f) => (f ? [...page.entries, ...f] : f));
      },
      (failure: unknown) => {
        setLoadingOlder(false);
        setError(messageOf(failure));
      },
    );
  }, [api, serverId, stream, filters, hasMore, loadingOlder, oldestSeq]);

  return {
    rows,
    hasMore,
    loading: history?.key !== requestKey || filterKey !== settledKey || loadingOlder,
    loaded: history !== null,
    error,
    following: frozen === null,
    newWhilePaused,
    pause,
    resume,
    loadOlder,
  };
}
