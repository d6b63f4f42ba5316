/**
 * Opens the picker inside `container` as if the user had: focuses its control and shows its choices.
 * A native select shows them with `showPicker()` (called from a click, which it needs); a Radix
 * Select trigger (role combobox) opens on ArrowDown, as it does from the keyboard. Either way the
 * focus lands on it, so a keyboard user is where they asked to go.
 */
export function openPicker(container: HTMLElement | null): boolean {
  const control = container?.querySelector<HTMLElement>('select, [role="combobox"]');
  if (!control || (control as HTMLSelectElement).disabled) return false;
  control.focus();
  if (control instanceof HTMLSelectElement) {
    try {
      control.showPicker();
    } catch {
      // Not allowed here (no user activation, or an old engine): the focus alone shows where it is.
    }
  } else {
    control.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
  }
  return true;
}
