/**
 * The visual system as a user sees it: every control in a dialog form — text fields, text areas,
 * selects, the primary button — takes the theme's colors (no white native widgets in dark), with
 * readable text; and Theme applies the moment it is chosen — no Save — and after a reload, while System follows the operating system's setting.
 * (Contrast over every page and dialog is checked by axe in accessibility.spec.ts.)
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/web-host';

/** What a control looks like: its background's and text's relative luminance and their contrast ratio. */
interface Look {
  tag: string;
  background: number;
  text: number;
  contrast: number;
}

/** The computed look of each element (its background is its own, or the nearest painted ancestor's). */
async function looks(elements: Locator): Promise<Look[]> {
  return elements.evaluateAll((nodes) => {
    const parse = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const backgroundOf = (el: Element | null): number[] => {
      for (let at = el; at; at = at.parentElement) {
        const rgba = parse(getComputedStyle(at).backgroundColor);
        if (rgba.length === 3 || (rgba.length === 4 && rgba[3] > 0.9)) return rgba;
      }
      return [255, 255, 255];
    };
    return nodes.map((node) => {
      const background = luminance(backgroundOf(node));
      const text = luminance(parse(getComputedStyle(node).color));
      const [hi, lo] = background > text ? [background, text] : [text, background];
      return { tag: node.tagName.toLowerCase(), background, text, contrast: (hi + 0.05) / (lo + 0.05) };
    });
  });
}

const pageBackground = (page: Page) => looks(page.locator('body')).then(([look]) => look.background);
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

test.use({ colorScheme: 'light' });

test('dialog controls take the theme; Theme applies at once and survives a reload; System follows the OS', async ({ page, webHost }) => {
  const html = page.locator('html');
  await page.goto(webHost.url);
  await nav(page, 'Settings');
  const form = page.getByRole('form', { name: 'Preferences' });
  const theme = (name: string) => form.getByRole('radio', { name, exact: true });
  const saveState = form.getByRole('status');

  await test.step('System follows the operating system, with nothing saved', async () => {
    await expect(theme('System')).toBeChecked();
    expect(await pageBackground(page)).toBeGreaterThan(0.8);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => pageBackground(page)).toBeLessThan(0.05);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => pageBackground(page)).toBeGreaterThan(0.8);
  });

  await test.step('Dark applies the moment it is chosen, without Save', async () => {
    await theme('Dark').check();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect.poll(() => pageBackground(page)).toBeLessThan(0.05);
    await expect(saveState).toHaveText('Saved'); // saved on its own: no Save press
  });

  await test.step('in dark, a dialog form’s fields, selects and primary button are dark and readable', async () => {
    await nav(page, 'Servers');
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add server' });
    await expect(dialog).toBeVisible();
    await dialog.locator('summary', { hasText: 'Advanced' }).click();
    const controls = await looks(dialog.locator('input[type="text"], input:not([type]), textarea, select, [role="combobox"]'));
    expect(controls.map((c) => c.tag)).toEqual(expect.arrayContaining(['input', 'textarea']));
    for (const control of controls) {
      expect(control.background, `${control.tag} background`).toBeLessThan(0.05); // no white native widget
      expect(control.contrast, `${control.tag} text`).toBeGreaterThanOrEqual(4.5);
    }
    const [save] = await looks(dialog.getByRole('button', { name: 'Save' }));
    expect(save.contrast, 'primary button text').toBeGreaterThanOrEqual(4.5);
    const [cancel] = await looks(dialog.getByRole('button', { name: 'Cancel' }));
    expect(cancel.contrast, 'secondary button text').toBeGreaterThanOrEqual(4.5);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await nav(page, 'Settings');
  });

  await test.step('Light applies at once even when the OS is dark, and a reload keeps it', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await theme('Light').check();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect.poll(() => pageBackground(page)).toBeGreaterThan(0.8);
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(theme('Light')).toBeChecked();
    expect(await pageBackground(page)).toBeGreaterThan(0.8);
  });
});
