import { useEffect, useRef, useState } from 'react';
import type { CompletionRef, HostApi } from '@contract';

/** How long typing must pause before suggestions are asked for. */
export const COMPLETION_DEBOUNCE_MS = 200;

export interface CompletionQuery {
  serverId: string;
  ref: CompletionRef;
  argument: string;
  value: string;
  /** The other fields' values (sent as `context.arguments`). */
  context: Readonly<Record<string, string>>;
}

/**
 * Suggestions for one field from `completion/complete`, asked for once typing pauses. Every answer
 * carries the number of the question it answers and only the newest question's answer is shown, so
 * a slow early answer never replaces a fresh one. A failure or silence just means no suggestions: the
 * host bounds the wait, and the field never waits for it. Off (no calls at all) when `enabled` is false.
 */
export function useCompletion(api: HostApi, query: CompletionQuery, enabled: boolean): { values: string[]; busy: boolean } {
  const [values, setValues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const sequence = useRef(0);
  const contextKey = JSON.stringify(query.context);
  const refKey = JSON.stringify(query.ref);
  const { serverId, argument, value } = query;

  useEffect(() => {
    if (!enabled) return;
    const asked = ++sequence.current;
    const timer = setTimeout(() => {
      setBusy(true);
      api
        .completeArgument({
          serverId,
          ref: JSON.parse(refKey) as CompletionRef,
          argument: { name: argument, value },
          context: JSON.parse(contextKey) as Record<string, string>,
        })
        .then(
          (answer) => asked === sequence.current && setValues(answer.values),
          () => asked === sequence.current && setValues([]),
        )
        .finally(() => asked === sequence.current && setBusy(false));
    }, COMPLETION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, enabled, serverId, refKey, argument, value, contextKey]);

  return { values: enabled ? values : [], busy: enabled && busy };
}
