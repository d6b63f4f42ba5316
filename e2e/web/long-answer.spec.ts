/**
 * A model streaming 50 MB of text (the scripted OpenAI-compatible endpoint), in Chromium: the answer
 * stops at the Answer limit (1,000,000 characters) with a message naming the limit and its setting,
 * the page never stops answering meanwhile (no main-thread task and no Settings round trip over the
 * budget below), and the saved conversation opens in a fresh tab.
 */
import type { Page } from '@playwright/test';
import { hostApi } from '../support/host-api';
import { useScriptedOpenAi } from '../support/scripted-openai';
import { expect, test } from '../support/web-host';

const openai = useScriptedOpenAi();
/**
 * The slowest the page may be at any moment of the stream. The aim is 200 ms; on the shared 2-core
 * test machine (load 10–20) a quiet Settings round trip alone takes ~150 ms and tasks of the quiet
 * page reach 300 ms, so the bound asserted is 2 s: far from the 10–50 s freezes of a page holding the
 * whole answer, and not a coin toss under load.
 */
const BUDGET_MS = 2_000;

/** Every main-thread task over 50 ms from now on, recorded in the page (Long Tasks API). */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
}

/** Chat → Settings → Chat by clicks in the page, timed there (ms) until each page is on screen. */
function settingsRoundTrip(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const go = async (name: string, done: () => boolean) => {
      const button = Array.from(document.querySelectorAll('nav[aria-label="Main"] button')).find((b) => b.textContent?.trim() === name);
      (button as HTMLButtonElement).click();
      while (!done()) await frame();
    };
    const started = performance.now();
    await go('Settings', () => Array.from(document.querySelectorAll('h1')).some((h) => h.textContent === 'Settings'));
    await go('Chat', () => !!document.querySelector('textarea[data-message-box]'));
    return performance.now() - started;
  });
}

test('a 50 MB answer stops at the Answer limit, the page stays responsive throughout, and the conversation opens in a fresh tab', async ({
  page,
  webHost,
}) => {
  test.setTimeout(180_000);
  const { api, socket } = await hostApi(webHost);
  const local = await api.addProvider({ type: 'openai-compatible', name: 'Local', baseUrl: openai().url });
  await api.updateSettings({ defaultProviderId: local.id, defaultModel: 'llama3.1:8b' });
  socket.socket.close();
  await openai().script([{ type: 'text', text: 'Here it comes.\n\n', bulkChars: 50_000_000 }]);

  await page.goto(webHost.url);
  const message = page.getByRole('textbox', { name: 'Message' });
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(message).toBeVisible();
  // Once, before the stream: the Settings page's chunk is fetched on its first visit.
  await settingsRoundTrip(page);

  await watchLongTasks(page);
  await message.fill('Write forever');
  await message.press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: 'limit of 1,000,000 characters' });
  const roundTrips: number[] = [];
  await test.step('the page answers throughout the stream', async () => {
    while (!(await alert.isVisible())) roundTrips.push(await settingsRoundTrip(page));
    roundTrips.push(await settingsRoundTrip(page));
  });
  await expect(alert).toContainText('"Answer limit (characters)" in Settings');
  await expect(alert.getByRole('button', { name: 'Open Settings' })).toBeVisible();
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  test.info().annotations.push({ type: 'round trips (ms)', description: roundTrips.map((ms) => Math.round(ms)).join(', ') });
  test.info().annotations.push({ type: 'long tasks (ms)', description: longTasks.map((ms) => Math.round(ms)).join(', ') || 'none' });
  expect(roundTrips.length).toBeGreaterThan(1);
  expect(Math.max(...roundTrips), 'slowest Settings round trip (ms)').toBeLessThan(BUDGET_MS);
  expect(Math.max(0, ...longTasks), 'longest main-thread task (ms)').toBeLessThan(BUDGET_MS);

  const answer = log.getByRole('article', { name: 'llama3.1:8b' });
  await expect(answer.getByText('Here it comes.')).toBeVisible();
  await expect(answer.getByRole('button', { name: /^Show all 1,000,000 characters/ })).toBeVisible();
  expect((await openai().chatRequests())[0].streamedChars).toBeLessThan(10_000_000);

  await test.step('the saved conversation opens in a fresh tab', async () => {
    const fresh = await page.context().newPage();
    await fresh.goto(webHost.url);
    await fresh
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Write forever/ })
      .click();
    const opened = fresh.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'llama3.1:8b' });
    await expect(opened.getByRole('button', { name: /^Show all 1,000,000 characters/ })).toBeVisible({ timeout: 10_000 });
    await expect(fresh.getByRole('textbox', { name: 'Message' })).toBeEditable();
    await fresh.close();
  });
});
