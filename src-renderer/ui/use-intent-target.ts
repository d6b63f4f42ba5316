import { useEffect, type RefObject } from 'react';
import type { IntentKind } from '../stores/navigation';
import { useAppStore } from '../stores/use-app-store';

/**
 * Carries out an intent aimed at one element (`target` equal to `id`): scrolls it into view and
 * focuses it, once it is rendered (after a route change, once its page has loaded it). `prepare`
 * runs first (e.g. opening a folded entry). Elements the intent is not about re-render for nothing.
 */
export function useIntentTarget(kind: IntentKind, id: string | undefined, ref: RefObject<HTMLElement | null>, prepare?: () => void): void {
  const intent = useAppStore((s) => (id !== undefined && s.intent?.kind === kind && s.intent.target === id ? s.intent : null));
  const finishIntent = useAppStore((s) => s.finishIntent);
  useEffect(() => {
    const element = ref.current;
    if (!intent || !element) return;
    prepare?.();
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
    finishIntent(intent);
    // `prepare` is the caller's inline function: the intent alone decides when this runs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [intent, ref, finishIntent]);
}
