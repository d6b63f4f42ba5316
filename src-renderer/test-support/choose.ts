/**
 * Picks an option of a Select (Radix): open the combobox from the keyboard, click the option by its
 * name. Not inside another act(): the list must render between the two steps.
 */
import { act, fireEvent, screen } from '@testing-library/react';

export async function choose(combobox: HTMLElement, option: string | RegExp): Promise<void> {
  fireEvent.keyDown(combobox, { key: 'Enter' });
  const item = screen.getByRole('option', { name: option });
  await act(async () => fireEvent.click(item));
}
