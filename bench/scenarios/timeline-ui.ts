/**
 * `timeline-ui` (issue 40): the Timeline of a 200-call turn, painted, in the real renderer (web mode,
 * system Chromium through Playwright, 1280×800) against the built web host. The scripted Messages API
 * answers once with 200 calls of the echo fixture's `echo` (the first is allowed with **Always
 * allow**, the rest run under it), then with text. Each sample marks the start and clicks the
 * answer's **Timeline** in one page task, then waits in animation frames until the dialog holds every
 * bar (the turn, two model requests, one consent wait, 200 calls) and one frame more (painted); the
 * dialog is closed between samples. The first opening also loads the dialog's lazy chunk (reported
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
/** The turn, two model requests, the one consent wait and the calls. */
const BARS = 1 + 2 + 1 + CALLS;

/** In the page: click the answer's Timeline and resolve with the ms until every bar is in the dialog and one frame passed. */
function openTimeline(page: Page, bars: number): Promise<number> {
  // No named function inside: tsx's keepNames would reference a `__name` helper the page lacks.
  return page.evaluate(
    (count) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the timeline was not painted within 60 s')), 60_000);
        const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('article button')).filter(
          (b) => b.textContent === 'Timeline',
        );
        const button = buttons.at(-1);
        if (!button) return reject(new Error('no Timeline button'));
        const start = performance.now();
        button.click();
        const check = () => {
          if (document.querySelectorAll('[role="dialog"] .timeline-bar').length >= count) {
            requestAnimationFrame(() => {
              clearTimeout(timer);
              resolve(performance.now() - start);
            });
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    bars,
  );
}

export async function runTimelineUi(rounds: number): Promise<{ firstMs: number; paintedMs: number[]; leftovers: number }> {
  ensureBuilt();
  const llm = await startScriptedProcess<ScriptStep, RecordedRequest>(
    path.join(REPO, 'e2e/fixtures/scripted-llm/server.mjs'),
    'scripted LLM',
    {},
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-timeline-'));
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  let measured: { firstMs: number; paintedMs: number[] } | undefined;
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

    await llm.reset();
    await llm.script([
      { type: 'tool_use', calls: Array.from({ length: CALLS }, (_, i) => ({ nameEndsWith: '__echo', input: { message: `call ${i}` } })) },
      { type: 'text', text: 'All two hundred done.' },
    ]);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Call echo two hundred times');
    await message.press('Enter');
    await page
      .getByRole('dialog', { name: /^Allow/ })
      .getByRole('button', { name: 'Always allow' })
      .click();
    await page.getByText('All two hundred done.').waitFor({ timeout: 300_000 });

    const dialog = page.getByRole('dialog', { name: 'Timeline' });
    const sample = async () => {
      const ms = await withDeadline('timeline painted', 90_000, () => openTimeline(page, BARS));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      return ms;
    };
    const firstMs = await sample();
    const paintedMs: number[] = [];
    for (let i = 0; i < rounds; i++) paintedMs.push(await sample());
    measured = { firstMs, paintedMs };
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
  const sorted = [...result.paintedMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `timeline of a ${CALLS}-call turn painted: median ${median.toFixed(0)} ms of ${rounds} (range ${sorted[0]!.toFixed(0)}–${sorted.at(-1)!.toFixed(0)}), first opening with its chunk ${result.firstMs.toFixed(0)} ms (target ≤ 100 ms)`,
  );
  console.log(JSON.stringify(result));
}
