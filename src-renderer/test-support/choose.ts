/** Picks an option of a Select (Radix): open the combobox from the keyboard, click the option by its name. */
import { fireEvent, screen } from '@testing-library/react';

export function choose(combobox: HTMLElement, option: string | RegExp): void {
  fireEvent.keyDown(combobox, { key: 'Enter' });
  fireEvent.click(screen.getByRole('option', { name: option }));
}
