/**
 * A row's "⋯" menu before its code has arrived. The Radix menu is a chunk of its own, fetched when
 * the browser is idle after the first paint; until then the row shows a stand-in button. A press on
 * it is not lost: once the chunk arrives the menu opens as that press always opens it (by keyboard:
 * the first item focused; Escape gives the focus back to the button).
 */
import { hostApi } from '../support/host-api';
import { expect, test } from '../support/web-host';

test('the row menu opens by keyboard even when pressed before its chunk arrived', async ({ page, webHost }) => {
  const host = await hostApi(webHost);
  try {
    await host.api.createConversation({ title: 'Receipts' });
  } finally {
    await host.socket.close();
  }
  // The menu's chunk is held back until the key press has happened.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/ActionsDropdown-[^/]*\.js$/, async (route) => {
    requested = true;
    await held;
    await route.continue();
  });
  await page.goto(webHost.url);
  const trigger = page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'Actions for Receipts' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => requested).toBe(true);
  await expect(page.getByRole('menu')).toHaveCount(0);

  release();
  const menu = page.getByRole('menu', { name: 'Actions for Receipts' });
  await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(trigger).toBeFocused();
});
