/**
 * `chat-ui`: the chat issue's rendering targets, measured in the real renderer (web mode, system
 * Chromium through Playwright) against the built web host (`out/main/web.js`):
 *
 * - open: a data directory holds the measured conversation (N messages, `seedConversation`) and a
 *   newer one-message conversation, so the Chat page first opens the small one by itself. Then, in
 *   one page task, `performance.mark('bench:open')` and a click on the measured conversation in the
 *   "Conversations" list; the result is the mark `patchbay:chat-painted` for that conversation minus
 *   `bench:open` (its newest message must be in the DOM at that moment). A conversation of 100
 *   messages is the baseline.
 * - scroll: with a 'longtask' PerformanceObserver installed, the message list is scrolled from the
 *   bottom up in steps (one animation frame between steps, older pages load as they would for a
 *   reader); the long tasks are counted. 100 messages against 10,000.
 *
 * Each arm gets a fresh data dir, web host and browser; all are closed and removed afterwards, and
 * the web host's process tree is checked to be gone.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt, startWebHost, stopWebHost } from '../lib/browser-session';
import { seedConversation } from '../lib/chat-persistence';
import { withDeadline } from '../lib/deadline';

const SCROLL_STEPS = 60;
const SCROLL_STEP_PX = 300;
/** Long tasks the large conversation may show above the baseline while scrolling. */
export const SCROLL_TOLERANCE = 2;

export interface ChatUiOptions {
  rounds: number;
  /** Messages of the conversation opened (100,000; --quick 20,000). */
  openMessages: number;
  /** Messages of the conversation scrolled (10,000; --quick 2,000). */
  scrollMessages: number;
  /** Messages of the baseline conversation (100). */
  baselineMessages?: number;
}

export interface OpenSample {
  ms: number;
  /** The newest message was in the DOM when the mark fired. */
  newestShown: boolean;
}

export interface ScrollSample {
  longTasks: number;
  longTaskMs: number;
  worstTaskMs: number;
  scrolledPx: number;
}

export interface ChatUiResult {
  open: { baseline: OpenSample[]; large: OpenSample[] };
  scroll: { baseline: ScrollSample[]; large: ScrollSample[] };
  /** Processes of a web host that had to be SIGKILLed or were still alive afterwards. */
  leftovers: number;
}

interface Session {
  page: Page;
  conversationId: string;
  messages: number;
}

/** A measured step in the browser (open or scroll) fails past this instead of hanging the bench. */
const STEP_DEADLINE_MS = 120_000;

/** One arm: a fresh data dir with the measured conversation (and a newer small one), web host and browser. */
async function withSession<T>(messages: number, body: (session: Session) => Promise<T>): Promise<{ value: T; leftovers: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-chat-ui-'));
  let host: { child: ChildProcess; url: string } | undefined;
  let browser: Browser | undefined;
  let leftovers = 0;
  try {
    const { conversationId } = seedConversation(dataDir, { messages, title: `Measured ${messages}` });
    await new Promise((r) => setTimeout(r, 5)); // a strictly newer updated_at for the start conversation
    seedConversation(dataDir, { messages: 1, title: 'Start here' });
    host = await startWebHost(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    // The Chat page opens the newest conversation ("Start here") by itself.
    await page.getByRole('log', { name: 'Messages' }).locator('article.message[data-seq="1"]').waitFor({ timeout: 30_000 });
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .locator('button.conversation-open', { hasText: `Measured ${messages}` })
      .waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300);
    const value = await withDeadline(`the chat UI with ${messages} messages`, STEP_DEADLINE_MS, () =>
      body({ page, conversationId, messages }),
    );
    return { value, leftovers };
  } finally {
    await browser?.close().catch(() => undefined);
    if (host) leftovers += await stopWebHost(host.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Marks `bench:open`, clicks the measured conversation in the same task, resolves at its `patchbay:chat-painted`. */
async function measureOpen({ page, conversationId, messages }: Session): Promise<OpenSample> {
  return page.evaluate(
    ({ id, title, newestSeq }) =>
      new Promise<OpenSample>((resolve, reject) => {
        const button = Array.from(
          document.querySelectorAll<HTMLButtonElement>('nav[aria-label="Conversations"] button.conversation-open'),
        ).find((b) => b.textContent?.includes(title));
        if (!button) return reject(new Error(`no conversation button "${title}"`));
        const timer = setTimeout(() => reject(new Error('no patchbay:chat-painted within 60 s')), 60_000);
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const detail = (entry as PerformanceMark).detail as { conversationId?: string } | null;
            if (entry.name !== 'patchbay:chat-painted' || detail?.conversationId !== id) continue;
            const newestShown = document.querySelector(`[role="log"] article.message[data-seq="${newestSeq}"]`) !== null;
            const open = performance.getEntriesByName('bench:open', 'mark').at(-1)!;
            observer.disconnect();
            clearTimeout(timer);
            resolve({ ms: entry.startTime - open.startTime, newestShown });
          }
        });
        observer.observe({ type: 'mark' });
        performance.mark('bench:open');
        button.click();
      }),
    { id: conversationId, title: `Measured ${messages}`, newestSeq: messages },
  );
}

/** Scrolls the message list from its end upwards and counts the long tasks meanwhile. */
async function measureScroll(session: Session): Promise<ScrollSample> {
  await measureOpen(session);
  await session.page.waitForTimeout(1000); // let the open's own work finish before observing
  // No named function inside: tsx's keepNames would reference a `__name` helper the page lacks.
  return session.page.evaluate(
    async ({ steps, px }) => {
      const log = document.querySelector<HTMLElement>('[role="log"][aria-label="Messages"]');
      if (!log) throw new Error('no message list');
      const durations: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) durations.push(entry.duration);
      });
      observer.observe({ type: 'longtask' });
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      let scrolled = 0;
      for (let i = 0; i < steps; i++) {
        const before = log.scrollTop;
        log.scrollTop = before - px;
        await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
        scrolled += Math.max(0, before - log.scrollTop);
      }
      await new Promise((resolve) => setTimeout(resolve, 500)); // older pages requested by the last steps
      for (const entry of observer.takeRecords()) durations.push(entry.duration);
      observer.disconnect();
      return {
        longTasks: durations.length,
        longTaskMs: durations.reduce((a, b) => a + b, 0),
        worstTaskMs: durations.length ? Math.max(...durations) : 0,
        scrolledPx: scrolled,
      };
    },
    { steps: SCROLL_STEPS, px: SCROLL_STEP_PX },
  );
}

/** Runs the rounds, alternating baseline and large arms (A B A B …, reversed every other round). */
export async function runChatUi(options: ChatUiOptions): Promise<ChatUiResult> {
  ensureBuilt();
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it, or set PLAYWRIGHT_CHROMIUM_PATH.`);
  const baselineMessages = options.baselineMessages ?? 100;
  const result: ChatUiResult = { open: { baseline: [], large: [] }, scroll: { baseline: [], large: [] }, leftovers: 0 };
  const arms: Array<() => Promise<void>> = [
    async () => {
      const open = await withSession(baselineMessages, measureOpen);
      result.open.baseline.push(open.value);
      result.leftovers += open.leftovers;
      const scroll = await withSession(baselineMessages, measureScroll);
      result.scroll.baseline.push(scroll.value);
      result.leftovers += scroll.leftovers;
    },
    async () => {
      const open = await withSession(options.openMessages, measureOpen);
      result.open.large.push(open.value);
      result.leftovers += open.leftovers;
      const scroll = await withSession(options.scrollMessages, measureScroll);
      result.scroll.large.push(scroll.value);
      result.leftovers += scroll.leftovers;
    },
  ];
  for (let round = 0; round < options.rounds; round++) {
    for (const arm of round % 2 ? [...arms].reverse() : arms) await arm();
  }
  return result;
}
