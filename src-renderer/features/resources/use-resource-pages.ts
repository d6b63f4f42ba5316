import { useCallback, useEffect, useRef, useState } from 'react';
import type { HostApi, ResourceView } from '@contract';
import { messageOf } from '../../ui/call-errors';

/** Resources fetched per page (a screenful is ~20: a page covers scrolling a while). */
export const RESOURCE_PAGE = 200;

export interface ResourcePages {
  /** How many resources match (the virtual list's length); null until the first page came. */
  total: number | null;
  unfiltered: number;
  notes: string[];
  error: string | null;
  /** The resource at a position, when its page has arrived. */
  item(index: number): ResourceView | undefined;
  /** Fetches the pages covering positions `from…to` that are not there yet. */
  ensure(from: number, to: number): void;
  /** Changes each time a first page arrives (a new filter, new lists): what is on screen is fresh. */
  firstPageArrivals: number;
}

/**
 * The resources of some servers as a sparse list, a page at a time from the host's copy: the first
 * page when the servers, the filter or the lists change (`revision`), then whatever the virtual list
 * scrolls to. An answer for an older filter or revision is dropped.
 */
export function useResourcePages(api: HostApi, serverIds: readonly string[], filter: string, revision: unknown): ResourcePages {
  const key = JSON.stringify([serverIds, filter]);
  const [state, setState] = useState<{
    key: string;
    revision: unknown;
    total: number | null;
    unfiltered: number;
    notes: string[];
    error: string | null;
  }>({ key, revision, total: null, unfiltered: 0, notes: [], error: null });
  const pages = useRef(new Map<number, ResourceView[]>());
  const asked = useRef(new Set<number>());
  const generation = useRef(0);
  const [, setArrived] = useState(0);
  const [firstPageArrivals, setFirstPageArrivals] = useState(0);

  const fetchPage = useCallback(
    (page: number, ask: number, forKey: string, forRevision: unknown) => {
      if (asked.current.has(page)) return;
      asked.current.add(page);
      const [ids, text] = JSON.parse(forKey) as [string[], string];
      if (ids.length === 0) {
        setState({ key: forKey, revision: forRevision, total: 0, unfiltered: 0, notes: [], error: null });
        return;
      }
      api.listResources({ serverIds: ids, filter: text, offset: page * RESOURCE_PAGE, limit: RESOURCE_PAGE }).then(
        (result) => {
          if (ask !== generation.current) return;
          pages.current.set(page, result.items);
          if (page === 0) setFirstPageArrivals((n) => n + 1);
          setState({
            key: forKey,
            revision: forRevision,
            total: result.total,
            unfiltered: result.unfiltered,
            notes: result.notes,
            error: null,
          });
          setArrived((n) => n + 1);
        },
        (failure: unknown) => {
          if (ask !== generation.current) return;
          asked.current.delete(page);
          setState((s) => ({ ...s, error: messageOf(failure) }));
        },
      );
    },
    [api],
  );

  useEffect(() => {
    const ask = ++generation.current;
    pages.current = new Map();
    asked.current = new Set();
    fetchPage(0, ask, key, revision);
  }, [key, revision, fetchPage]);

  const ensure = useCallback(
    (from: number, to: number) => {
      for (let page = Math.floor(from / RESOURCE_PAGE); page <= Math.floor(to / RESOURCE_PAGE); page++)
        fetchPage(page, generation.current, key, revision);
    },
    [fetchPage, key, revision],
  );
  const item = useCallback((index: number) => pages.current.get(Math.floor(index / RESOURCE_PAGE))?.[index % RESOURCE_PAGE], []);
  const current = state.key === key;
  return {
    total: current ? state.total : null,
    unfiltered: state.unfiltered,
    notes: state.notes,
    error: state.error,
    item,
    ensure,
    firstPageArrivals,
  };
}
