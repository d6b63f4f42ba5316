/**
 * `tool-lists`: the screens that must scale (issue 41), measured in the real renderer (web mode,
 * system Chromium through Playwright, 1280×800) against the built web host. The large fleet is 30
 * servers of `forty-tools.mjs --tools 67` (2,010 tools); the baseline, in the same run, one server of
 * 40 tools. Each measurement marks `bench:start` and acts in one page task, then waits for the
 * condition to hold in an animation frame and one frame more (painted):
 *
 * - servers: from the Chat page, a click on Servers until every server's row is in the list;
 * - filter: a keystroke in `Search servers` (one letter that narrows the list) until the rows changed;
 * - tools tab: a click on the first server's Tools tab until its first tool row is there;
 * - picker: a click on the chat's "Tools:" summary until the first `Offer … to the model` switch is there;
 * - tool search: a keystroke in the picker's `Search tools` until its rows changed.
 *
 * Every arm gets a fresh data dir, web host and browser, closed and removed afterwards, the web
 * host's process tree checked to be gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt, startWebHost, stopWebHost } from '../lib/browser-session';
import { seedServers } from '../lib/seed';
import { REPO } from '../lib/servers';
import { withDeadline } from '../lib/deadline';

const FORTY = path.join(REPO, 'e2e/fixtures/forty-tools.mjs');
const FLEETS = { large: { servers: 30, tools: 67 }, baseline: { servers: 1, tools: 40 } } as const;
type Fleet = keyof typeof FLEETS;
export const TOOL_LIST_METRICS = ['servers', 'filter', 'toolsTab', 'picker', 'toolSearch'] as const;
type Metric = (typeof TOOL_LIST_METRICS)[number];

export type ToolListsUiResult = Record<Fleet, Record<Metric, number[]>> & { leftovers: number };

/**
 * In the page: marks the start, runs `act` (a selector to click, or a search box and the text to put
 * in it), and resolves with the milliseconds until `done` (a selector that must match `count`
 * elements, or differ in count from before) held and one more frame passed.
 */
function measure(
  page: Page,
  spec: { click?: string; type?: { box: string; text: string }; done: string; count?: number },
): Promise<number> {
  // No named function inside: tsx's keepNames would reference a `__name` helper the page lacks.
  return page.evaluate(
    (s) =>
      new Promise<number>((resolve, reject) => {
        const before = document.querySelectorAll(s.done).length;
        const timer = setTimeout(() => reject(new Error(`not painted within 60 s: ${s.done}`)), 60_000);
        const start = performance.now();
        if (s.click) {
          const target = document.querySelector<HTMLElement>(s.click);
          if (!target) return reject(new Error(`nothing to click: ${s.click}`));
          // Radix tabs switch on mousedown, buttons on click: both, as a real press.
          target.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
          target.click();
        } else if (s.type) {
          const box = document.querySelector<HTMLInputElement>(s.type.box);
          if (!box) return reject(new Error(`no box: ${s.type.box}`));
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
          setter.call(box, s.type.text);
          box.dispatchEvent(new Event('input', { bubbles: true }));
        }
        const check = () => {
          const now = document.querySelectorAll(s.done).length;
          const held = s.count !== undefined ? now === s.count : now !== before && now > 0;
          if (held) {
            requestAnimationFrame(() => {
              clearTimeout(timer);
              resolve(performance.now() - start);
            });
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    spec,
  );
}

async function hostArm(fleet: Fleet, result: ToolListsUiResult): Promise<void> {
  const { servers, tools } = FLEETS[fleet];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-tool-lists-'));
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  try {
    seedServers(
      dataDir,
      Array.from({ length: servers }, (_, i) => ({
        name: `tracker ${i + 1}`,
        command: process.execPath,
        args: [FORTY, '--tools', String(tools)],
      })),
    );
    host = await startWebHost(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByRole('button', { name: 'Servers', exact: true }).click();
    await page
      .locator('ul[aria-label="Servers"] > li[data-status="ready"]')
      .nth(servers - 1)
      .waitFor({ timeout: 180_000 });
    await main.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await page.waitForTimeout(500);
    const rows = 'ul[aria-label="Servers"] > li';
    await main.getByRole('button', { name: 'Servers', exact: true }).evaluate((el) => el.setAttribute('data-bench', 'servers'));
    const m = result[fleet];
    m.servers.push(
      await withDeadline('Servers page painted', 90_000, () =>
        measure(page, { click: '[data-bench="servers"]', done: rows, count: servers }),
      ),
    );
    await page.waitForTimeout(300);
    // "tracker 1" narrows 30 rows to 11 (1, 10–19); the baseline's one row goes ("No server matches").
    const filter =
      servers > 1
        ? { type: { box: 'input[aria-label="Search servers"]', text: 'tracker 1' }, done: rows, count: 11 }
        : { type: { box: 'input[aria-label="Search servers"]', text: 'zzz' }, done: 'p.empty-state', count: 1 };
    m.filter.push(await withDeadline('filter keystroke painted', 60_000, () => measure(page, filter)));
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('');
    await page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: 'tracker 1', exact: true }).click();
    await page.getByRole('tab', { name: /^Tools\b/ }).evaluate((el) => el.setAttribute('data-bench', 'tools-tab'));
    await page.waitForTimeout(300);
    m.toolsTab.push(
      await withDeadline('Tools tab painted', 60_000, () =>
        measure(page, { click: '[data-bench="tools-tab"]', done: 'ul[aria-label="Tools of tracker 1"] > li' }),
      ),
    );
    await main.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    const summary = page.locator('summary').filter({ hasText: /^Tools:/ });
    await summary.waitFor();
    await summary.evaluate((el) => el.setAttribute('data-bench', 'picker'));
    await page.waitForTimeout(300);
    m.picker.push(
      await withDeadline('tool picker opened', 60_000, () =>
        measure(page, { click: '[data-bench="picker"]', done: '[role="switch"][aria-label^="Offer "]' }),
      ),
    );
    await page.waitForTimeout(300);
    m.toolSearch.push(
      await withDeadline('picker search painted', 60_000, () =>
        measure(page, {
          type: { box: '.server-toggles input[aria-label="Search tools"]', text: 'delete_label' },
          done: '[role="switch"][aria-label^="Offer "]',
        }),
      ),
    );
  } finally {
    await browser?.close().catch(() => undefined);
    if (host) result.leftovers += await stopWebHost(host.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runToolListsUi(options: { rounds: number }): Promise<ToolListsUiResult> {
  ensureBuilt();
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it, or set PLAYWRIGHT_CHROMIUM_PATH.`);
  const empty = () => Object.fromEntries(TOOL_LIST_METRICS.map((k) => [k, [] as number[]])) as Record<Metric, number[]>;
  const result: ToolListsUiResult = { large: empty(), baseline: empty(), leftovers: 0 };
  for (let round = 0; round < options.rounds; round++) {
    const order: Fleet[] = round % 2 ? ['baseline', 'large'] : ['large', 'baseline'];
    for (const fleet of order) await hostArm(fleet, result);
  }
  return result;
}
