import { useCallback, useEffect, useState } from 'react';
import type { AuditEntry, HostApi } from '../../../src-preload/contract';
import { messageOf } from '../../ui/call-errors';

const PAGE = 25;

/**
 * The audit trail, a page at a time. `refresh` changes whenever a call was decided or ended: the
 * newest page is fetched again (older pages already shown stay as they are).
 */
export function useAuditTrail(api: HostApi, refresh: unknown) {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [nextBefore, setNextBefore] = useState<number | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    api.listToolAudit({ limit: PAGE }).then(
      (page) => {
        if (!current) return;
        setEntries((shown) => {
          const fresh = new Set(page.entries.map((e) => e.seq));
          const oldest = page.entries.at(-1)?.seq ?? Infinity;
          return [...page.entries, ...shown.filter((e) => !fresh.has(e.seq) && e.seq < oldest)];
        });
        setNextBefore((before) => before ?? page.nextBefore);
        setLoading(false);
      },
      (failure: unknown) => current && (setError(messageOf(failure)), setLoading(false)),
    );
    return () => {
      current = false;
    };
  }, [api, refresh]);

  const more = useCallback(() => {
    if (nextBefore === undefined) return;
    setLoading(true);
    api.listToolAudit({ limit: PAGE, before: nextBefore }).then(
      (page) => {
        setEntries((shown) => [...shown, ...page.entries.filter((e) => !shown.some((s) => s.seq === e.seq))]);
        setNextBefore(page.nextBefore);
        setLoading(false);
      },
      (failure: unknown) => (setError(messageOf(failure)), setLoading(false)),
    );
  }, [api, nextBefore]);

  return { entries, hasMore: nextBefore !== undefined, loading, error, more };
}
