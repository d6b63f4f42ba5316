/**
 * `first-paint`: how much of the renderer the first paint waits for, and how long it takes, in web
 * mode (the built web host, system Chromium through Playwright, a fresh browser so nothing is cached).
 *
 * - bundle: the JavaScript and CSS `out/renderer/index.html` loads before anything runs (its entry
 *   script, the chunks it preloads, its style sheets) against every chunk of the renderer (what one
 *   bundle would weigh). Read from the build, so it does not vary.
 * - in the browser: the bytes of scripts and style sheets that started loading before the first
 *   contentful paint (Resource Timing), the first contentful paint, and the moment the shell's "Main"
 *   navigation is in the DOM (polled every animation frame), all from navigation start.
 *
 * Each round gets a fresh data dir, web host and browser; all are closed and removed afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureBuilt, startWebHost, stopWebHost } from '../lib/browser-session';
import { REPO } from '../lib/servers';

const RENDERER = path.join(REPO, 'out', 'renderer');

export interface FirstPaintSample {
  /** First contentful paint, ms from navigation start. */
  fcpMs: number;
  /** The shell's navigation in the DOM, ms from navigation start. */
  shellMs: number;
  /** Script and style bytes whose fetch started before the first contentful paint. */
  bytesBeforePaint: number;
}

export interface FirstPaintResult {
  /** Bytes index.html loads up front (entry, preloaded chunks, style sheets). */
  initialBytes: number;
  /** Bytes of every script and style sheet of the renderer. */
  totalBytes: number;
  /** Chunks index.html loads up front. */
  initialFiles: string[];
  samples: FirstPaintSample[];
  leftovers: number;
}

/** What the built index.html loads before anything runs, and the whole renderer's weight. */
export function measureBuiltBundle(): Pick<FirstPaintResult, 'initialBytes' | 'totalBytes' | 'initialFiles'> {
  const html = fs.readFileSync(path.join(RENDERER, 'index.html'), 'utf8');
  const initialFiles = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const size = (file: string) => fs.statSync(path.join(RENDERER, file)).size;
  const assets = fs.readdirSync(path.join(RENDERER, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  return {
    initialFiles,
    initialBytes: initialFiles.reduce((sum, file) => sum + size(file), 0),
    totalBytes: assets.reduce((sum, file) => sum + size(path.join('assets', file)), 0),
  };
}

async function sample(result: FirstPaintResult): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-first-paint-'));
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  try {
    host = await startWebHost(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Installed before any of the page's scripts: records when the shell's navigation first exists. A
    // string, not a function: tsx would wrap a named function in a helper the page does not have.
    await page.addInitScript({
      content: `(() => {
        const check = () => {
          if (document.querySelector('nav[aria-label="Main"]')) window.__shellMs = performance.now();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })();`,
    });
    await page.goto(host.url);
    await page.waitForFunction(
      () =>
        (window as unknown as { __shellMs?: number }).__shellMs !== undefined &&
        performance.getEntriesByName('first-contentful-paint').length > 0,
      undefined,
      { timeout: 30_000 },
    );
    result.samples.push(
      await page.evaluate(() => {
        const fcpMs = performance.getEntriesByName('first-contentful-paint')[0].startTime;
        const bytesBeforePaint = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((r) => r.startTime < fcpMs && /\.(js|css)(\?|$)/.test(r.name))
          .reduce((sum, r) => sum + r.decodedBodySize, 0);
        return { fcpMs, shellMs: (window as unknown as { __shellMs: number }).__shellMs, bytesBeforePaint };
      }),
    );
  } finally {
    await browser?.close().catch(() => undefined);
    if (host) result.leftovers += await stopWebHost(host.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Builds if needed, then measures `rounds` cold loads of the web renderer. */
export async function runFirstPaint(options: { rounds: number }): Promise<FirstPaintResult> {
  ensureBuilt();
  const result: FirstPaintResult = { ...measureBuiltBundle(), samples: [], leftovers: 0 };
  for (let round = 0; round < options.rounds; round++) await sample(result);
  return result;
}
