import { Suspense, useState, type KeyboardEvent, type PointerEvent } from 'react';
// Types only (erased): the dropdown's code stays in its own chunk.
import type { ActionsMenuProps, ReplayedPress } from './ActionsDropdown';
import { lazyPart, useLoaded } from './lazy-part';
import './actions-menu.css';

/** The Radix menu (ActionsDropdown.tsx): fetched when the browser is idle after the first paint, or on first use. */
export const actionsDropdownPart = lazyPart(async () => (await import('./ActionsDropdown')).ActionsDropdown);
const ActionsDropdown = actionsDropdownPart.Component;

/** The keys that open a Radix menu from its trigger. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * A "⋯" button opening a menu of actions. Until the menu's chunk has arrived (it is fetched when the
 * browser is idle after the first paint) the button is a stand-in with the same name and looks:
 * pointing at or focusing it starts the fetch, and a press on it (mouse, Enter, Space, Arrow Down) is
 * done again on the real trigger once it is there, so the menu opens exactly as that press opens it.
 */
export function ActionsMenu(props: ActionsMenuProps) {
  // Until the chunk has arrived every ActionsMenu shows its stand-in trigger.
  const loaded = useLoaded(actionsDropdownPart);
  const [pressed, setPressed] = useState<ReplayedPress>();
  const [focused, setFocused] = useState(false);
  const fetchMenu = () => void actionsDropdownPart.preload().catch(() => undefined);
  const press = (replay: ReplayedPress) => {
    setPressed(replay);
    fetchMenu();
  };
  const standIn = (
    <button
      type="button"
      className="actions-menu-trigger"
      aria-label={props.label}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={fetchMenu}
      onFocus={() => {
        setFocused(true);
        fetchMenu();
      }}
      onBlur={() => setFocused(false)}
      onPointerDown={(event: PointerEvent) => {
        if (event.button !== 0 || event.ctrlKey) return;
        // Like Radix's trigger: the press keeps the focus on the button.
        event.preventDefault();
        press({ kind: 'pointer' });
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        press({ kind: 'key', key: event.key });
      }}
    >
      <span aria-hidden="true">⋯</span>
    </button>
  );
  if (!loaded) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ActionsDropdown {...props} autoFocus={focused || pressed !== undefined} replay={pressed} />
    </Suspense>
  );
}
