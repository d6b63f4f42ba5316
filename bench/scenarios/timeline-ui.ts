/**
 * `timeline-ui` (issue 40): the Timeline of a 200-call turn, painted, in the real renderer (web mode,
 * system Chromium through Playwright, 1280×800) against the built web host. The scripted Messages API
 * answers once with 200 calls of the echo fixture's `echo` (run under the **Always allow** given to
 * the baseline turn's call), then with text; a one-call turn before it is the baseline, sampled
 * interleaved with it in the same page. Each sample marks the start and clicks the
 * answer's **Timeline** in one page task, then waits in animation frames until the waterfall holds
 * this opening's answer — its rows say the turn has every bar (the turn, two model requests, 200
 * calls: `aria-setsize`), it is no longer busy fetching (`aria-busy`), a bar is in the page (the list
 * is virtualised: only the rows on screen are) — and one frame more (painted); the dialog is closed
 * between samples. The first opening also loads the dialog's lazy chunk (reported
 * apart). Run alone: `npx tsx bench/scenarios/timeline-ui.ts [--rounds N]` (after `npm run build`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { RecordedRequest, ScriptStep } from '../../src-main/core/chat/test-support/scripted-llm';
import { startScriptedProcess } from '../../src-main/test-support/scripted-process';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt, startWebHost, stopWebHost } from '../lib/browser-session';
import { withDeadline } from '../lib/deadline';
import { seedServers } from '../lib/seed';
import { REPO } from '../lib/servers';

const CALLS = 200;
/** The baseline turn: the turn, two model requests, the consent wait (Always allow) and one call. */
const BASELINE_BARS = 1 + 2 + 1 + 1;
/** The measured turn: the turn, two model requests and the calls (run under the standing allow). */
const BARS = 1 + 2 + CALLS;
const BASELINE_ANSWER = 'One done.';
const ANSWER = 'All two hundred done.';

/**
 * In the page: click the answer's Timeline and resolve with the ms until the waterfall shows this
 * opening's answer with every bar and one frame passed. Plain JavaScript source: tsx's keepNames would give a function compiled here
 * a `__name` helper the page lacks.
 */
const OPEN_TIMELINE = `(count, answer) => new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the timeline was not painted within 60 s')), 60000);
  const article = Array.from(document.querySelectorAll('article')).filter((a) => a.textContent.includes(answer)).at(-1);
  const button = article && Array.from(article.querySelectorAll('button')).find((b) => b.textContent === 'Timeline');
  if (!button) return reject(new Error('no Timeline button'));
  const start = performance.now();
  button.click();
  const check = () => {
    const list = document.querySelector('[role="dialog"] ol.timeline');
    const row = list && list.querySelector('li[aria-setsize]');
    if (row && Number(row.getAttribute('aria-setsize')) >= count && list.getAttribute('aria-busy') !== 'true' && list.querySelector('.timeline-bar')) {
      requestAnimationFrame(() => { clearTimeout(timer); resolve(performance.now() - start); });
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

function openTimeline(page: Page, bars: number, answer: string): Promise<number> {
  return page.evaluate(`(${OPEN_TIMELINE})(${bars}, ${JSON.stringify(answer)})`) as Promise<number>;
}

export async function runTimelineUi(rounds: number): Promise<{
  firstMs: number;
  paintedMs: number[];
  baselineMs: number[];
  paintedBusyMs: number[];
  baselineBusyMs: number[];
  leftovers: number;
}> {
  ensureBuilt();
  const llm = await startScriptedProcess<ScriptStep, RecordedRequest>(
    path.join(REPO, 'e2e/fixtures/scripted-llm/server.mjs'),
    'scripted LLM',
    {},
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-timeline-'));
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  let measured:
    { firstMs: number; paintedMs: number[]; baselineMs: number[]; paintedBusyMs: number[]; baselineBusyMs: number[] } | undefined;
  let leftovers = 0;
  try {
    seedServers(dataDir, [{ name: 'echo', command: process.execPath, args: [path.join(REPO, 'e2e/fixtures/echo.mjs')] }]);
    host = await startWebHost(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByRole('button', { name: 'Settings', exact: true }).click();
    const form = page.getByRole('form', { name: 'Preferences' });
    await form.getByRole('textbox', { name: 'Anthropic base URL', exact: true }).fill(llm.url);
    await form.getByLabel('API key', { exact: true }).fill('sk-ant-bench-key');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('api-key-state').getByText('Set.').waitFor();
    await main.getByRole('button', { name: 'Servers', exact: true }).click();
    await page.locator('ul[aria-label="Servers"] > li[data-status="ready"]').first().waitFor({ timeout: 60_000 });
    await main.getByRole('button', { name: 'Chat', exact: true }).click();

    const message = page.getByRole('textbox', { name: 'Message' });
    const turn = async (calls: number, answer: string) => {
      await llm.reset();
      await llm.script([
        { type: 'tool_use', calls: Array.from({ length: calls }, (_, i) => ({ nameEndsWith: '__echo', input: { message: `call ${i}` } })) },
        { type: 'text', text: answer },
      ]);
      await message.fill(`Call echo ${calls} times`);
      await message.press('Enter');
    };
    // The baseline turn asks once; Always allow lets the 200 calls run without a dialog.
    await turn(1, BASELINE_ANSWER);
    await page
      .getByRole('dialog', { name: /^Allow/ })
      .getByRole('button', { name: 'Always allow' })
      .click();
    await page.getByText(BASELINE_ANSWER).waitFor({ timeout: 60_000 });
    await turn(CALLS, ANSWER);
    await page.getByText(ANSWER).waitFor({ timeout: 300_000 });

    const dialog = page.getByRole('dialog', { name: 'Timeline' });
    // The page's main-thread busy time (Chromium's TaskDuration) over a sample: what the opening cost
    // the renderer, less swayed by a loaded box than the wall time (which waits for a core too).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const busySeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    const sample = async (bars: number, answer: string) => {
      const before = await busySeconds();
      const ms = await withDeadline('timeline painted', 90_000, () => openTimeline(page, bars, answer));
      const busyMs = ((await busySeconds()) - before) * 1000;
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      return { ms, busyMs };
    };
    const firstMs = (await sample(BARS, ANSWER)).ms;
    const [paintedMs, baselineMs, paintedBusyMs, baselineBusyMs]: number[][] = [[], [], [], []];
    // Interleaved: the one-call turn's timeline and the 200-call turn's, in the same page.
    for (let i = 0; i < rounds; i++) {
      const one = await sample(BASELINE_BARS, BASELINE_ANSWER);
      const big = await sample(BARS, ANSWER);
      baselineMs.push(one.ms);
      baselineBusyMs.push(one.busyMs);
      paintedMs.push(big.ms);
      paintedBusyMs.push(big.busyMs);
    }
    measured = { firstMs, paintedMs, baselineMs, paintedBusyMs, baselineBusyMs };
  } finally {
    await browser?.close().catch(() => undefined);
    if (host) leftovers = await stopWebHost(host.child);
    await llm.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { ...measured!, leftovers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 7;
  const result = await runTimelineUi(rounds);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [big, one] = [median(result.paintedMs), median(result.baselineMs)];
  console.log(
    `timeline painted, median of ${rounds}: ${CALLS}-call turn ${big.toFixed(0)} ms (target ≤ 100 ms) · 1-call turn ${one.toFixed(0)} ms · ${(big / one).toFixed(2)}×; first opening with its chunk ${result.firstMs.toFixed(0)} ms`,
  );
  console.log(
    `main thread busy, median: ${CALLS}-call turn ${median(result.paintedBusyMs).toFixed(0)} ms · 1-call turn ${median(result.baselineBusyMs).toFixed(0)} ms · load ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(JSON.stringify(result));
}
