import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConversationCursor, ConversationPage, ConversationSummary } from '@contract';
import { messageOf } from '../../ui/call-errors';

/** How long typing must pause before the host is asked. */
const SEARCH_DELAY_MS = 250;

interface Found {
  query: string;
  results: ConversationSummary[];
  hasMore: boolean;
  error?: string;
}

export interface ConversationSearch {
  /** A search is under way (the box is not empty). */
  active: boolean;
  /** Matches so far (pages are added by `loadMore`). */
  results: ConversationSummary[];
  hasMore: boolean;
  /** The first page for the current text is not there yet, or more is loading. */
  loading: boolean;
  error?: string;
  loadMore(): void;
  /** Takes a deleted conversation out of the matches. */
  forget(id: string): void;
}

/**
 * Searches every conversation by title through the host (`listConversations` with a query), not only
 * the loaded ones; pages on when `loadMore` is called. The host is asked once typing pauses.
 */
export function useConversationSearch(
  text: string,
  search: (query: string, after?: ConversationCursor) => Promise<ConversationPage>,
): ConversationSearch {
  const query = text.trim();
  const [found, setFound] = useState<Found | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const inFlight = useRef(false);

  useEffect(() => {
    if (query === '') return;
    let cancelled = false;
    const timer = setTimeout(() => {
      search(query).then(
        (page) => !cancelled && setFound({ query, results: page.conversations, hasMore: page.hasMore }),
        (error: unknown) => !cancelled && setFound({ query, results: [], hasMore: false, error: messageOf(error) }),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query, search]);

  const current = query !== '' && found?.query === query ? found : null;
  const loadMore = useCallback(() => {
    const last = current?.results[current.results.length - 1];
    if (!current?.hasMore || !last || inFlight.current) return;
    inFlight.current = true;
    setLoadingMore(true);
    search(current.query, { updatedAt: last.updatedAt, id: last.id })
      .then(
        (page) =>
          setFound((f) => {
            if (f?.query !== current.query) return f;
            const known = new Set(f.results.map((c) => c.id));
            return { ...f, results: [...f.results, ...page.conversations.filter((c) => !known.has(c.id))], hasMore: page.hasMore };
          }),
        (error: unknown) => setFound((f) => (f?.query === current.query ? { ...f, hasMore: false, error: messageOf(error) } : f)),
      )
      .finally(() => {
        inFlight.current = false;
        setLoadingMore(false);
      });
  }, [current, search]);

  const forget = useCallback((id: string) => setFound((f) => f && { ...f, results: f.results.filter((c) => c.id !== id) }), []);

  return {
    forget,
    active: query !== '',
    results: current?.results ?? [],
    hasMore: current?.hasMore ?? false,
    loading: (query !== '' && !current) || loadingMore,
    error: current?.error,
    loadMore,
  };
}
