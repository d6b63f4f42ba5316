import { useEffect, useRef } from 'react';
import { isMac, shortcutFor, type ShortcutId } from './shortcuts';

/**
 * Listens for the app's shortcuts on the whole window and runs the matching handler (the latest
 * one given: handlers may change every render without re-subscribing).
 */
export function useShortcuts(handlers: Record<ShortcutId, () => void>): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    const mac = isMac();
    const onKeyDown = (event: KeyboardEvent) => {
      const id = shortcutFor(event, mac);
      if (!id) return;
      event.preventDefault();
      current.current[id]();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
