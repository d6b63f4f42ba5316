/**
 * `resources-ui`: the resources issue's targets, measured in the real renderer (web mode, system
 * Chromium through Playwright) against the built web host, with the bare SDK on the same fixture as
 * the baseline (content-lab.mjs: 10,000 resources in pages of 100, and a 10 MB text resource):
 *
 * - list: the server is Ready and its Resources tab open; in one page task `performance.mark('bench:list')`
 *   and a click on Refresh (the host walks all 100 pages again, the renderer is told, fetches the first
 *   page and paints it); the result is the next `patchbay:resources-painted` mark minus `bench:list`.
 *   Baseline: the bare SDK client's `resources/list` loop over the same 100 pages (connected already).
 * - read: `bench:read` and a click on Read for the 10 MB resource; the result is `patchbay:read-painted`
 *   minus `bench:read`. Baseline: the bare SDK `readResource` of the same URI.
 * - scroll: with a 'longtask' PerformanceObserver installed, the list of 10,000 is scrolled top to
 *   bottom in steps (one animation frame between steps, pages load as they would for a reader); the
 *   worst long task must stay under 100 ms.
 *
 * Arms alternate round by round; each host arm gets a fresh data dir, web host and browser, all closed
 * and removed afterwards, the web host's process tree checked to be gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt, startWebHost, stopWebHost } from '../lib/browser-session';
import { seedServers } from '../lib/seed';
import { REPO } from '../lib/servers';
import { withDeadline } from '../lib/deadline';

const LAB = path.join(REPO, 'e2e/fixtures/content-lab.mjs');
const RESOURCES = 10_000;
const PAGE = 100;
const BIG_MB = 10;
// --stamp: each walk retitles the items, so a Refresh brings a changed list (an unchanged one repaints nothing).
const LAB_ARGS = [LAB, '--resources', String(RESOURCES), '--page-size', String(PAGE), '--big-mb', String(BIG_MB), '--stamp'];
const SCROLL_STEPS = 80;
/** The generated resources plus the fixture's 11 fixed ones (two of them the 10 MB pair). */
const LISTED = RESOURCES + 11;
const LISTED_TEXT = `${LISTED.toLocaleString('en-US')} resources`;

export interface ResourcesUiResult {
  listMs: { host: number[]; sdk: number[] };
  readMs: { host: number[]; sdk: number[] };
  scroll: { worstTaskMs: number; longTasks: number; scrolledPx: number }[];
  leftovers: number;
}

/** One host arm: a web host whose data dir holds the fixture, its Resources tab open in Chromium. */
async function hostArm(result: ResourcesUiResult): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-resources-ui-'));
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  try {
    seedServers(dataDir, [{ name: 'lab', command: process.execPath, args: LAB_ARGS }]);
    host = await startWebHost(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers', exact: true }).click();
    const card = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'lab', exact: true });
    await card.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'lab', exact: true }).click();
    await page.getByRole('tab', { name: /^Resources/ }).click();
    await page.getByRole('status').filter({ hasText: LISTED_TEXT }).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    result.listMs.host.push(
      await withDeadline('Refresh → painted', 120_000, () => measureClick(page, 'Refresh', 'patchbay:resources-painted')),
    );
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('big.txt');
    await page.getByRole('list', { name: 'Resources of lab' }).getByRole('button', { name: 'big.txt', exact: true }).click();
    result.readMs.host.push(await withDeadline('Read → painted', 120_000, () => measureClick(page, 'Read', 'patchbay:read-painted')));
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('');
    await page.getByRole('status').filter({ hasText: LISTED_TEXT }).waitFor();
    await page.waitForTimeout(1000);
    result.scroll.push(await withDeadline('scrolling 10,000 resources', 120_000, () => measureScroll(page)));
  } finally {
    await browser?.close().catch(() => undefined);
    if (host) result.leftovers += await stopWebHost(host.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Marks `bench:click`, clicks the button in the same task, resolves with the time to the next `mark`. */
function measureClick(page: Page, button: string, mark: string): Promise<number> {
  return page.evaluate(
    ({ name, markName }) =>
      new Promise<number>((resolve, reject) => {
        const target = Array.from(document.querySelectorAll<HTMLButtonElement>('button')).find((b) => b.textContent === name);
        if (!target) return reject(new Error(`no button "${name}"`));
        const timer = setTimeout(() => reject(new Error(`no ${markName} within 60 s`)), 60_000);
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (entry.name !== markName) continue;
            const start = performance.getEntriesByName('bench:click', 'mark').at(-1)!;
            if (entry.startTime < start.startTime) continue;
            observer.disconnect();
            clearTimeout(timer);
            resolve(entry.startTime - start.startTime);
          }
        });
        observer.observe({ type: 'mark' });
        performance.mark('bench:click');
        target.click();
      }),
    { name: button, markName: mark },
  );
}

/** Scrolls the resource list from top to bottom and reports the long tasks meanwhile. */
function measureScroll(page: Page): Promise<{ worstTaskMs: number; longTasks: number; scrolledPx: number }> {
  // No named function inside: tsx's keepNames would reference a `__name` helper the page lacks.
  return page.evaluate(async (steps) => {
    const list = document.querySelector<HTMLElement>('[data-testid="resource-scroller"]');
    if (!list) throw new Error('no resource list');
    const durations: number[] = [];
    const observer = new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries()) durations.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    const step = Math.ceil((list.scrollHeight - list.clientHeight) / steps);
    let scrolled = 0;
    for (let i = 0; i < steps; i++) {
      const before = list.scrollTop;
      list.scrollTop = before + step;
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      scrolled += Math.max(0, list.scrollTop - before);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // pages asked for by the last steps
    for (const entry of observer.takeRecords()) durations.push(entry.duration);
    observer.disconnect();
    return { worstTaskMs: durations.length ? Math.max(...durations) : 0, longTasks: durations.length, scrolledPx: scrolled };
  }, SCROLL_STEPS);
}

/** One SDK arm: the bare client connected to the same fixture; the list loop and the read, timed. */
async function sdkArm(result: ResourcesUiResult): Promise<void> {
  const client = new Client({ name: 'bench', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: LAB_ARGS,
    stderr: 'ignore',
    maxBufferSize: 64 * 1024 * 1024,
  });
  await client.connect(transport);
  try {
    const started = performance.now();
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await client.request({ method: 'resources/list', params: cursor === undefined ? {} : { cursor } });
      count += page.resources.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    result.listMs.sdk.push(performance.now() - started);
    if (count !== LISTED) throw new Error(`the SDK listed ${count} resources`);
    const read = performance.now();
    const big = await client.readResource({ uri: 'lab://big/text' }, { cacheMode: 'bypass' });
    result.readMs.sdk.push(performance.now() - read);
    if (!('text' in big.contents[0])) throw new Error('the SDK read no text');
  } finally {
    await client.close();
  }
}

export async function runResourcesUi(options: { rounds: number }): Promise<ResourcesUiResult> {
  ensureBuilt();
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it, or set PLAYWRIGHT_CHROMIUM_PATH.`);
  const result: ResourcesUiResult = { listMs: { host: [], sdk: [] }, readMs: { host: [], sdk: [] }, scroll: [], leftovers: 0 };
  const arms = [() => hostArm(result), () => sdkArm(result)];
  for (let round = 0; round < options.rounds; round++) {
    for (const arm of round % 2 ? [...arms].reverse() : arms) await arm();
  }
  return result;
}
