/**
 * Defects a new user hit (issue #33), each reproduced in the browser against a real web-mode host.
 */
import { ContractSocket, signIn } from '../support/raw-client';
import { expect, test } from '../support/web-host';

const LONG_TITLE = 'Summarise the attached document about the quarterly results and the plans for next year';

test('a long conversation title starts at the left edge, ends in an ellipsis and shows in full on hover', async ({ page, webHost }) => {
  const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
    origin: webHost.origin,
    credential: (await signIn(webHost.url)).credential,
  });
  await socket.call(1, 'createConversation', { title: LONG_TITLE });
  socket.socket.close();

  await page.goto(webHost.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  const row = list.getByRole('listitem').filter({ hasText: 'Summarise' });
  await expect(row).toBeVisible();
  const boxes = await row.evaluate((li) => {
    const open = li.querySelector<HTMLElement>('.conversation-open')!;
    const title = li.querySelector<HTMLElement>('.conversation-title')!;
    const meta = li.querySelector<HTMLElement>('.conversation-meta')!;
    const menu = li.querySelector<HTMLElement>('.conversation-actions')!;
    const box = (el: HTMLElement) => el.getBoundingClientRect();
    return {
      open: { left: box(open).left, right: box(open).right },
      title: { left: box(title).left, right: box(title).right, scrollWidth: title.scrollWidth, clientWidth: title.clientWidth },
      meta: { left: box(meta).left, right: box(meta).right },
      menuLeft: box(menu).left,
      ellipsis: getComputedStyle(title).textOverflow,
      hover: open.title,
    };
  });
  // The title's first letter is inside the row, where the time line starts.
  expect(boxes.title.left).toBeGreaterThanOrEqual(boxes.open.left);
  expect(boxes.meta.left).toBeGreaterThanOrEqual(boxes.open.left);
  // It is cut at its end (with an ellipsis), not spilling out of the row.
  expect(boxes.title.scrollWidth).toBeGreaterThan(boxes.title.clientWidth);
  expect(boxes.ellipsis).toBe('ellipsis');
  expect(boxes.title.right).toBeLessThanOrEqual(boxes.open.right + 0.5);
  // The ⋯ button sits after the text, never over it.
  expect(boxes.title.right).toBeLessThanOrEqual(boxes.menuLeft + 0.5);
  expect(boxes.meta.right).toBeLessThanOrEqual(boxes.menuLeft + 0.5);
  // Pointing at the row shows the whole title.
  expect(boxes.hover).toContain(LONG_TITLE);
});
