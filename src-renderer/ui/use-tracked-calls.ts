import { useCallback, useState } from 'react';
import { messageOf } from './call-errors';

export interface CallFailure<K extends string> {
  key: K;
  message: string;
}

/**
 * Tracks host calls by a key (e.g. 'start', 'stop'): which are in flight, and the last one that
 * failed. `run` never throws; a failure lands in `failure` until the next call or `dismiss`.
 */
export function useTrackedCalls<K extends string>() {
  const [pending, setPending] = useState<ReadonlySet<K>>(() => new Set());
  const [failure, setFailure] = useState<CallFailure<K> | null>(null);

  const run = useCallback(async (key: K, call: () => Promise<unknown>): Promise<boolean> => {
    setPending((p) => new Set(p).add(key));
    setFailure(null);
    try {
      await call();
      return true;
    } catch (error) {
      setFailure({ key, message: messageOf(error) });
      return false;
    } finally {
      setPending((p) => {
        const next = new Set(p);
        next.delete(key);
        return next;
      });
    }
  }, []);

  const dismiss = useCallback(() => setFailure(null), []);
  return { pending, failure, run, dismiss, isPending: (key: K) => pending.has(key) };
}
