/**
 * The app's keyboard shortcuts, as data (the palette and docs/usage.md list them) and as one pure
 * function from a key event to the shortcut it means. None is one a browser keeps for itself
 * (Ctrl+N, Ctrl+T, Ctrl+W, Ctrl+L…), so they work the same in web mode and in the desktop app.
 */

export type ShortcutId = 'palette' | 'new-conversation' | 'focus-message' | 'stop';

/** What a shortcut does, and its keys on other systems and on macOS. */
export interface ShortcutInfo {
  id: ShortcutId;
  label: string;
  keys: string;
  macKeys: string;
}

export const SHORTCUTS: readonly ShortcutInfo[] = [
  { id: 'palette', label: 'Command palette', keys: 'Ctrl+K', macKeys: '⌘K' },
  { id: 'new-conversation', label: 'New conversation', keys: 'Ctrl+Shift+O', macKeys: '⇧⌘O' },
  { id: 'focus-message', label: 'Focus the message box', keys: '/', macKeys: '/' },
  { id: 'stop', label: 'Stop the answer', keys: 'Ctrl+. or Esc in the message box', macKeys: '⌘. or Esc in the message box' },
];

/** The keys of a shortcut as this system writes them. */
export function shortcutKeys(id: ShortcutId, mac: boolean): string {
  const info = SHORTCUTS.find((s) => s.id === id)!;
  return mac ? info.macKeys : info.keys;
}

/** Whether this is macOS (Cmd rather than Ctrl). */
export function isMac(nav: Pick<Navigator, 'userAgent'> = navigator): boolean {
  return /Mac|iPhone|iPad/.test(nav.userAgent);
}

/** The parts of a keydown event a shortcut depends on. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** Something handled the key already (a menu that closed on Escape). */
  defaultPrevented: boolean;
  target: EventTarget | null;
}

/** Typing goes here: single keys are the field's, not shortcuts. */
function isEditable(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  return element.isContentEditable || element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null;
}

/** Inside an open dialog: the dialog owns the keyboard (its Escape, its fields). */
function inDialog(target: EventTarget | null): boolean {
  return (
    !!target &&
    typeof (target as Element).closest === 'function' &&
    (target as Element).closest('[role="dialog"], [role="alertdialog"]') !== null
  );
}

function inPalette(target: EventTarget | null): boolean {
  return !!target && typeof (target as Element).closest === 'function' && (target as Element).closest('.palette') !== null;
}

/** The shortcut a key press means, or null. `mac`: Cmd is the modifier instead of Ctrl. */
export function shortcutFor(press: KeyPress, mac: boolean): ShortcutId | null {
  const mod = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  // The palette's own shortcut closes it again (and never reaches the browser's search bar).
  if (mod && key === 'k' && !press.shiftKey && !press.altKey && inPalette(press.target)) return 'palette';
  if (press.defaultPrevented || inDialog(press.target)) return null;
  if (mod && !press.altKey) {
    if (key === 'k' && !press.shiftKey) return 'palette';
    if (key === 'o' && press.shiftKey) return 'new-conversation';
    if (key === '.' && !press.shiftKey) return 'stop';
    return null;
  }
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (key === '/' && !isEditable(press.target)) return 'focus-message';
  if (key === 'Escape' && !press.shiftKey && (press.target as HTMLElement | null)?.dataset?.messageBox !== undefined) return 'stop';
  return null;
}
