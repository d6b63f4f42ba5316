import { useCallback, useEffect, useState } from 'react';
import { messageOf } from './call-errors';

const PAGE = 25;

/** What an audit list method returns: entries newest first, and where the next (older) page starts. */
export interface AuditPageOf<E> {
  entries: E[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: number;
}

/** Fetches one page: `before` is a `seq`, only older entries come back. */
export type AuditPageLoader<E> = (page: { limit: number; before?: number }) => Promise<AuditPageOf<E>>;

/** The state a paged audit list shows. */
export interface AuditPages<E> {
  entries: E[];
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  /** Appends the next older page. */
  more(): void;
}

/**
 * An audit trail (tool calls, server requests), a page at a time, newest first. `load` must be stable
 * (wrap it in useCallback). `refresh` changes whenever something new was audited: the newest page is
 * fetched again and merged in front; older pages already shown stay as they are, so the user does not
 * lose their place. (More than a page of new entries between two refreshes leaves a gap that "show
 * older" does not fill; acceptable for lists refreshed on every event.)
 */
export function useAuditPages<E extends { seq: number }>(load: AuditPageLoader<E>, refresh: unknown): AuditPages<E> {
  const [entries, setEntries] = useState<E[]>([]);
  const [nextBefore, setNextBefore] = useState<number | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    load({ limit: PAGE }).then(
      (page) => {
        if (!current) return;
        setEntries((shown) => {
          const fresh = new Set(page.entries.map((e) => e.seq));
          const oldest = page.entries.at(-1)?.seq ?? Infinity;
          return [...page.entries, ...shown.filter((e) => !fresh.has(e.seq) && e.seq < oldest)];
        });
        // Once the user paged back, their cursor stays; before that, the newest page's cursor applies.
        setNextBefore((before) => before ?? page.nextBefore);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => current && (setError(messageOf(failure)), setLoading(false)),
    );
    return () => {
      current = false;
    };
  }, [load, refresh]);

  const more = useCallback(() => {
    if (nextBefore === undefined) return;
    setLoading(true);
    load({ limit: PAGE, before: nextBefore }).then(
      (page) => {
        setEntries((shown) => [...shown, ...page.entries.filter((e) => !shown.some((s) => s.seq === e.seq))]);
        setNextBefore(page.nextBefore);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => (setError(messageOf(failure)), setLoading(false)),
    );
  }, [load, nextBefore]);

  return { entries, hasMore: nextBefore !== undefined, loading, error, more };
}
