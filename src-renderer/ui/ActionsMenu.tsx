import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import './actions-menu.css';

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

/**
 * A "⋯" button opening a menu of actions (Radix Dropdown Menu: arrow keys, Home/End, type-ahead,
 * Escape, focus back on the trigger). Items that open a dialog can do so from `onSelect`: the menu
 * closes first and gives focus back.
 */
export function ActionsMenu({ label, actions }: ActionsMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="actions-menu-trigger" aria-label={label}>
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
