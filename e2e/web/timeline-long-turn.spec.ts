/**
 * A long turn's cards and a dialog over them, end to end: the scripted Messages API calls
 * server-everything's `echo` 60 times in one answer. The chat's cards out of view are skipped by the
 * browser (`content-visibility: auto`), so opening a dialog — which restyles the whole page behind it —
 * touches only the cards in view; the Timeline's **Show the card** still brings a skipped card, far above
 * the view in the same message, into view and focuses it — and, from the audit trail's Timeline, a card
 * whose message is outside the chat's rendered window.
 */
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();
const SERVER = 'Everything (demo)';
const CALLS = 60;
const ANSWER = 'All sixty done.';

/**
 * In the page: the chat's tool cards, and how many of them lie more than two viewport heights from the
 * view (Chromium renders what lies within 150% of it) with their insides rendered anyway (not skipped).
 * Plain JavaScript: runs in the browser.
 */
const CARD_RENDERING = `(() => {
  const cards = Array.from(document.querySelectorAll('[role="log"] .tool-card'));
  const far = cards.filter((card) => {
    const r = card.getBoundingClientRect();
    return r.bottom < -2 * innerHeight || r.top > 3 * innerHeight;
  });
  const rendered = (card) => card.querySelector('.tool-card-head').checkVisibility({ contentVisibilityAuto: true });
  return { cards: cards.length, far: far.length, farRendered: far.filter(rendered).length };
})()`;

test('a 60-call turn: cards out of view are skipped behind the Timeline, and Show the card reaches the first', async ({
  page,
  webHost,
}) => {
  const main = page.getByRole('navigation', { name: 'Main' });
  const message = page.getByRole('textbox', { name: 'Message' });
  const log = page.getByRole('log', { name: 'Messages' });
  await page.goto(webHost.url);
  await pointAnthropicAt(page, llm().url);
  await main.getByRole('button', { name: 'Servers', exact: true }).click();
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: SERVER }).click();
  await expect(page.getByRole('listitem', { name: SERVER }).getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
  await main.getByRole('button', { name: 'Chat', exact: true }).click();

  // One call first, allowed for good: the long turn then runs without a question.
  await llm().script([
    { type: 'tool_use', calls: [{ nameEndsWith: '__echo', input: { message: 'first' } }] },
    { type: 'text', text: 'One done.' },
  ]);
  await message.fill('Echo once');
  await message.press('Enter');
  await page
    .getByRole('dialog', { name: /^Allow/ })
    .getByRole('button', { name: 'Always allow' })
    .click();
  await expect(log.getByText('One done.')).toBeVisible();
  await llm().script([
    { type: 'tool_use', calls: Array.from({ length: CALLS }, (_, i) => ({ nameEndsWith: '__echo', input: { message: `call ${i}` } })) },
    { type: 'text', text: ANSWER },
  ]);
  await message.fill(`Echo ${CALLS} times`);
  await message.press('Enter');
  await expect(log.getByText(ANSWER)).toBeVisible({ timeout: 60_000 });

  const answer = log.getByRole('article').filter({ hasText: ANSWER });
  await answer.getByRole('button', { name: 'Timeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Timeline' });
  const waterfall = dialog.getByRole('list', { name: 'Turn timeline' });
  await expect(waterfall.getByRole('button').first()).toBeFocused();

  // Behind the open dialog: the turn's cards are all in the page, and those far from the view are
  // skipped — none of them is styled and laid out with the page (the dialog's page-wide restyle).
  const rendering = (await page.evaluate(CARD_RENDERING)) as { cards: number; far: number; farRendered: number };
  expect(rendering.cards).toBeGreaterThanOrEqual(CALLS);
  expect(rendering.far).toBeGreaterThanOrEqual(CALLS / 3);
  expect(rendering.farRendered).toBe(0);

  // The first call's card is far above the view, skipped; its bar's Show the card reaches it.
  const first = log.getByRole('article', { name: `Tool call echo on ${SERVER}` }).filter({ hasText: '"call 0"' });
  await expect(first).not.toBeInViewport();
  await waterfall
    .getByRole('button', { name: /^Tool call: Everything \(demo\) › echo,/ })
    .first()
    .click();
  await dialog.getByRole('group', { name: 'Go to' }).getByRole('button', { name: 'Show the card' }).click();
  await expect(dialog).toBeHidden();
  await expect(first).toBeFocused();
  await expect(first).toBeInViewport();
  expect(await first.evaluate((card) => card.querySelector('.tool-card-head')!.checkVisibility({ contentVisibilityAuto: true }))).toBe(
    true,
  );

  await test.step('from the audit trail, Show the card reaches a card whose message is outside the chat’s window', async () => {
    // A few short turns after: the first turn's messages leave the rendered window (the view and a few rows).
    for (const n of [1, 2, 3, 4]) {
      await llm().script([{ type: 'text', text: `Reply ${n}.` }]);
      await message.fill(`Say ${n}`);
      await message.press('Enter');
      await expect(log.getByText(`Reply ${n}.`)).toBeVisible();
    }
    const firstTurnCard = log.getByRole('article', { name: `Tool call echo on ${SERVER}` }).filter({ hasText: '"first"' });
    await expect(firstTurnCard).toHaveCount(0); // not rendered: its row is outside the window
    await main.getByRole('button', { name: 'Settings', exact: true }).click();
    // The one call the user allowed themselves (the rest ran under the standing decision), the oldest.
    const calls = page.getByRole('list', { name: 'Tool calls' });
    const mine = calls.getByRole('listitem').filter({ hasText: 'allowed by you' });
    await expect(async () => {
      if ((await mine.count()) === 0) await page.getByRole('button', { name: 'Show older calls' }).click({ timeout: 1000 });
      await expect(mine).toHaveCount(1, { timeout: 1000 });
    }).toPass();
    await mine.locator('summary').click();
    await mine.getByRole('button', { name: 'Timeline' }).click();
    await waterfall.getByRole('button', { name: /^Tool call: Everything \(demo\) › echo,/ }).click();
    await dialog.getByRole('group', { name: 'Go to' }).getByRole('button', { name: 'Show the card' }).click();
    await expect(firstTurnCard).toBeFocused();
    await expect(firstTurnCard).toBeInViewport();
  });
});
