/**
 * The app's drop-down lists are Radix Selects (a button with role combobox, its options in a listbox
 * that opens beside it), not native <select>s: these pick and read them the way a user does.
 */
import type { Locator } from '@playwright/test';
import { expect } from './web-host';

/**
 * Opens the combobox and clicks the option of that name, then waits until the control shows it (a
 * controlled choice shows once the host has it, so what follows acts on the new value).
 */
export async function choose(combobox: Locator, option: string | RegExp): Promise<void> {
  await combobox.click();
  await combobox
    .page()
    .getByRole('listbox')
    .getByRole('option', { name: option, exact: typeof option === 'string' })
    .click();
  await expect(combobox).toHaveAttribute('aria-expanded', 'false');
  await expect(combobox).toHaveText(option);
}

/** The names of the combobox's options, in order (the list is opened to read them, then closed). */
export async function optionNames(combobox: Locator): Promise<string[]> {
  await combobox.click();
  const list = combobox.page().getByRole('listbox');
  await expect(list).toBeVisible();
  const names = await list.getByRole('option').allTextContents();
  await combobox.page().keyboard.press('Escape');
  await expect(combobox).toHaveAttribute('aria-expanded', 'false');
  return names;
}
