/**
 * Many conversations in web mode: the list shows the newest page, loads older ones as it scrolls, and
 * "Search conversations" finds one far beyond what is loaded (the host searches them all).
 */
import { ContractSocket, signIn } from '../support/raw-client';
import { expect, test } from '../support/web-host';

test('the conversation list pages on scroll and searches every conversation by title', async ({ page, webHost }) => {
  const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
    origin: webHost.origin,
    credential: (await signIn(webHost.url)).credential,
  });
  // Oldest first: the first one created ends up last in the list, beyond the first page.
  await socket.call(1, 'createConversation', { title: 'Tax return 2019' });
  for (let i = 0; i < 130; i++) await socket.call(2 + i, 'createConversation', { title: `Conversation ${i}` });
  socket.socket.close();

  await page.goto(webHost.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(list.getByRole('button', { name: /^Conversation 129/ })).toBeVisible();
  await expect(list.getByRole('button', { name: /^Tax return 2019/ })).toHaveCount(0);

  await test.step('scrolling to the end loads the older ones', async () => {
    const scroller = list.locator('.conversation-scroll');
    await expect(async () => {
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(list.getByRole('button', { name: /^Tax return 2019/ })).toBeVisible({ timeout: 1000 });
    }).toPass();
  });

  await test.step('a search finds it by title, whatever is loaded', async () => {
    await page.reload();
    await list.getByRole('searchbox', { name: 'Search conversations' }).fill('tax');
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await list.getByRole('button', { name: /^Tax return 2019/ }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Tax return 2019' })).toBeVisible();
    await list.getByRole('searchbox', { name: 'Search conversations' }).fill('no such title');
    await expect(list.getByRole('status')).toHaveText('No conversation’s title or messages contain “no such title”.');
  });
});
