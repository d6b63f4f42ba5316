import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useRef } from 'react';

/** The menu's items and its trigger's name live here, beside the menu that shows them; ActionsMenu imports them as types. */
export interface MenuAction {
  /** The item's text (its accessible name). */
  label: string;
  onSelect(): void;
  /** Shown in the danger color (Delete). */
  danger?: boolean;
}

export interface ActionsMenuProps {
  /** The trigger's accessible name, e.g. "Actions for Tax questions". */
  label: string;
  actions: MenuAction[];
}

/** What the user did to the stand-in trigger before this chunk arrived: done again to the real one. */
export type ReplayedPress = { kind: 'key'; key: string } | { kind: 'pointer' };

export interface ActionsDropdownProps extends ActionsMenuProps {
  /** Take the focus when mounted: the stand-in trigger it replaces had it. */
  autoFocus?: boolean;
  /** A press on the stand-in, replayed on this trigger once mounted (so the menu opens as that press opens it). */
  replay?: ReplayedPress;
}

/**
 * The menu behind ActionsMenu's "⋯" button (Radix Dropdown Menu: arrow keys, Home/End, type-ahead,
 * Escape, focus back on the trigger). Items that open a dialog can do so from `onSelect`: the menu
 * closes first and gives focus back. Its own chunk (≈ 38 KB; it took ≈ 73 KB out of the entry):
 * Radix's menu and its positioning (Floating UI) are not needed for the first paint.
 */
export function ActionsDropdown({ label, actions, autoFocus, replay }: ActionsDropdownProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const button = trigger.current;
    if (!button || !replay) return;
    // A real event on the real trigger, after Radix's own listeners are in place: a key press opens
    // the menu with its first item focused, a pointer press with the menu itself focused — as always.
    if (replay.kind === 'key') button.dispatchEvent(new KeyboardEvent('keydown', { key: replay.key, bubbles: true, cancelable: true }));
    else button.dispatchEvent(new MouseEvent('pointerdown', { button: 0, bubbles: true, cancelable: true }));
    // Once, on mount: a later render never presses again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger ref={trigger} className="actions-menu-trigger" aria-label={label} autoFocus={autoFocus}>
        <span aria-hidden="true">⋯</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="actions-menu" align="end" sideOffset={4} aria-label={label}>
          {actions.map((action) => (
            <DropdownMenu.Item
              key={action.label}
              className={action.danger ? 'actions-menu-item danger' : 'actions-menu-item'}
              onSelect={action.onSelect}
            >
              {action.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
