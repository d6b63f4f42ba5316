/**
 * `openai-stream`: a streamed answer from an OpenAI-compatible endpoint (the scripted one, on
 * 127.0.0.1) through Patchbay against the bare `openai` SDK reading the same stream, in one run:
 *
 * - bare: `client.chat.completions.create({ stream: true })` in this process; time to first token is
 *   from the call to the first content delta, per-token time from the first to the last delta / (n − 1).
 * - host (core): the real `createHost` in this process, an OpenAI-compatible provider pointing at the
 *   server, `sendMessage` through `inProcessApi` (validated like a bridge's call); first token is the
 *   first `chatDelta` carrying text, the last token the finished `chatMessage`; CPU of this process per
 *   token against the bare arm's.
 * - renderer (painted): the built web host (`out/main/web.js`) and Chromium: Send is clicked in the
 *   page, and a MutationObserver takes the animation frame after the first and the last token reached
 *   the DOM of the answer. This includes the WebSocket hop, React and the DOM.
 *
 * The server models a local model: `FIRST_TOKEN_MS` before the first token (prompt processing), then
 * one token every `TOKEN_MS`. Against a server answering in microseconds any fixed cost would be an
 * unbounded ratio; the absolute overheads (ms) are reported as well. Arms alternate round by round.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type Page } from '@playwright/test';
import OpenAI from 'openai';
import type { HostApi, HostEvent } from '@contract';
import { createHost, type Host } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { startScriptedOpenAi, type OpenAiScriptStep, type ScriptedOpenAi } from '../../src-main/test-support/scripted-openai';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt, startWebHost, stopWebHost } from '../lib/browser-session';

export const FIRST_TOKEN_MS = 150;
export const TOKEN_MS = 5;
const MODEL = 'llama3.1:8b';

export interface StreamSample {
  /** Call (or click) → first token seen (painted, for the renderer). */
  firstTokenMs: number;
  /** (last token − first token) / (tokens − 1). */
  perTokenMs: number;
  /** CPU of this process per token, µs (bare and host arms). */
  cpuUsPerToken?: number;
}

export interface OpenAiStreamResult {
  tokens: number;
  bare: StreamSample[];
  host: StreamSample[];
  renderer: StreamSample[];
  rendererError?: string;
}

function step(tokens: number, firstDelayMs = FIRST_TOKEN_MS): OpenAiScriptStep {
  const pieces = Array.from({ length: tokens }, (_, i) => `tok${i} `);
  return { type: 'text', text: pieces.join(''), chunks: pieces, delayMs: TOKEN_MS, firstDelayMs };
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function bareArm(server: ScriptedOpenAi, tokens: number): Promise<StreamSample> {
  await server.script([step(tokens)]);
  const client = new OpenAI({ apiKey: 'unused', baseURL: server.url, maxRetries: 0, organization: null, project: null });
  const cpu = cpuUs();
  const start = performance.now();
  const stream = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'Count' }],
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 4096,
  });
  let first = 0;
  let last = 0;
  let seen = 0;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta?.content) {
      last = performance.now();
      first ||= last;
      seen++;
    }
  }
  if (seen !== tokens) throw new Error(`bare arm saw ${seen} of ${tokens} tokens`);
  return { firstTokenMs: first - start, perTokenMs: (last - first) / (tokens - 1), cpuUsPerToken: (cpuUs() - cpu) / tokens };
}

/** A fresh data dir whose default model is the scripted endpoint's. */
async function seededDataDir(server: ScriptedOpenAi): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-openai-'));
  const host = createHost({ mode: 'web', appVersion: 'bench', dataDir });
  const api = inProcessApi(host.handlers);
  const provider = await api.addProvider({ type: 'openai-compatible', name: 'Local', baseUrl: server.url });
  await api.updateSettings({ defaultProviderId: provider.id, defaultModel: MODEL });
  await host.dispose();
  return dataDir;
}

/** Streams the answer to one message in a fresh conversation of a running host; resolves when it is complete. */
async function hostSample(host: Host, server: ScriptedOpenAi, tokens: number, script: OpenAiScriptStep): Promise<StreamSample> {
  const api: HostApi = inProcessApi(host.handlers);
  const conversation = await api.createConversation();
  await server.script([script]);
  let first = 0;
  let last = 0;
  let unsubscribe = () => {};
  const done = new Promise<void>((resolve) => {
    unsubscribe = host.events.subscribe((event: HostEvent) => {
      if (event.payload && 'conversationId' in event.payload && event.payload.conversationId !== conversation.id) return;
      // The first words come with the answer's row (chatMessage), or in a delta.
      const words =
        (event.name === 'chatMessage' &&
          event.payload.role === 'assistant' &&
          event.payload.content.some((b) => b.type === 'text' && b.text)) ||
        (event.name === 'chatDelta' && event.payload.ops.some((op) => op.op === 'text'));
      if (words && !first) first = performance.now();
      if (event.name === 'chatMessage' && event.payload.role === 'assistant' && event.payload.status === 'complete') {
        last = performance.now();
        resolve();
      }
    });
  });
  const cpu = cpuUs();
  const start = performance.now();
  await api.sendMessage({ conversationId: conversation.id, text: 'Count' });
  await done;
  unsubscribe();
  return { firstTokenMs: first - start, perTokenMs: (last - first) / (tokens - 1), cpuUsPerToken: (cpuUs() - cpu) / tokens };
}

/** A running host (as the app is when you chat): one warm-up answer, then the measured one. */
async function hostArm(server: ScriptedOpenAi, tokens: number): Promise<StreamSample> {
  const dataDir = await seededDataDir(server);
  const host = createHost({ mode: 'web', appVersion: 'bench', dataDir });
  try {
    await hostSample(host, server, 10, step(10, 0));
    return await hostSample(host, server, tokens, step(tokens));
  } finally {
    await host.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Clicks Send in the page and resolves with when the first and the last token were painted. */
async function paintedSample(page: Page, tokens: number): Promise<{ firstTokenMs: number; perTokenMs: number }> {
  // Runs in the page: no named function inside (tsx's keepNames would reference a `__name` helper the
  // page lacks), and the page's own `window.performance` (a bundle renames this module's import).
  return page.evaluate(
    ({ n }) =>
      new Promise<{ firstTokenMs: number; perTokenMs: number }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the answer was not painted within 60 s')), 60_000);
        let start = 0;
        let first = 0;
        const marks: Record<string, boolean> = {};
        const observer = new MutationObserver(() => {
          const answer = document.querySelector('article.message-assistant')?.textContent ?? '';
          if (!marks.first && answer.includes('tok0')) {
            marks.first = true;
            requestAnimationFrame(() => (first = window.performance.now()));
          }
          if (!marks.last && answer.includes(`tok${n - 1}`)) {
            marks.last = true;
            observer.disconnect();
            requestAnimationFrame(() => {
              const last = window.performance.now();
              clearTimeout(timer);
              resolve({ firstTokenMs: first - start, perTokenMs: (last - first) / (n - 1) });
            });
          }
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        const send = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Send');
        if (!send) return reject(new Error('no Send button'));
        start = window.performance.now();
        send.click();
      }),
    { n: tokens },
  );
}

/** The web host and a page on it: one warm-up answer, then the measured one in a new conversation. */
async function rendererArm(server: ScriptedOpenAi, tokens: number, browser: Browser): Promise<StreamSample> {
  const dataDir = await seededDataDir(server);
  const web = await startWebHost(dataDir);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(web.url);
    const composer = page.getByRole('textbox', { name: 'Message' });
    const log = page.getByRole('log', { name: 'Messages' });
    await composer.waitFor({ timeout: 30_000 });
    await composer.fill('Warm up');
    await server.script([step(10, 0)]);
    await paintedSample(page, 10);
    await log.locator('article.message-assistant[data-status="complete"]').waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'New conversation' }).click();
    // An empty conversation shows its first-run notes; the message log appears with the first message.
    await page.getByRole('heading', { name: 'New conversation', level: 2 }).waitFor({ timeout: 30_000 });
    await composer.fill('Count');
    await server.script([step(tokens)]);
    const sample = await paintedSample(page, tokens);
    await page.close();
    return sample;
  } finally {
    await stopWebHost(web.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the rounds: bare, host and renderer arms alternate (order reversed every other round). */
export async function runOpenAiStream(options: { rounds: number; tokens: number }): Promise<OpenAiStreamResult> {
  const server = await startScriptedOpenAi();
  const result: OpenAiStreamResult = { tokens: options.tokens, bare: [], host: [], renderer: [] };
  let browser: Browser | undefined;
  try {
    try {
      ensureBuilt();
      if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}`);
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    } catch (error) {
      result.rendererError = (error as Error).message.split('\n')[0];
    }
    // One warm-up of the bare arm (module loading, JIT); the host arms warm up inside each sample.
    await bareArm(server, 10);
    const arms: (() => Promise<void>)[] = [
      async () => void result.bare.push(await bareArm(server, options.tokens)),
      async () => void result.host.push(await hostArm(server, options.tokens)),
      async () => {
        if (browser) result.renderer.push(await rendererArm(server, options.tokens, browser));
      },
    ];
    for (let round = 0; round < options.rounds; round++) {
      for (const arm of round % 2 ? [...arms].reverse() : arms) await arm();
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await server.stop();
  }
  return result;
}
