/**
 * Runs a scripted HTTP stand-in (an LLM API in e2e/fixtures/) as a child process and drives it over
 * HTTP: its queue of answers (`/__script`), the requests it recorded (`/__requests`), `/__reset`.
 * Imports neither vitest nor Playwright, so core tests, Playwright specs and benchmarks share it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ScriptedProcess<Step, Recorded> {
  /** The URL the process printed (what a base URL setting takes). */
  readonly url: string;
  /** Replaces (or with `append: true`, appends to) the queue of answers; other fields configure the server. */
  script(responses: Step[], extra?: Record<string, unknown>): Promise<void>;
  /** Every request so far. */
  requests(): Promise<Recorded[]>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/**
 * Starts `entry` on a free port; resolves once it prints "listening on <url>". The control routes
 * live at the URL's origin (the printed URL may carry a path, e.g. `/v1`).
 */
export function startScriptedProcess<Step, Recorded>(
  entry: string,
  what: string,
  options: { timeoutMs?: number } = {},
): Promise<ScriptedProcess<Step, Recorded>> {
  const child: ChildProcess = spawn(process.execPath, [entry, '--port', '0'], {
    cwd: path.dirname(entry),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The ${what} did not start: ${output}`));
    }, options.timeoutMs ?? 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const url = match[1];
      const origin = new URL(url).origin;
      resolve({
        url,
        async script(responses, extra = {}) {
          await post(`${origin}/__script`, { responses, ...extra });
        },
        async requests() {
          const res = await fetch(`${origin}/__requests`);
          return ((await res.json()) as { requests: Recorded[] }).requests;
        },
        async reset() {
          await post(`${origin}/__reset`, {});
        },
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
          await exited;
          clearTimeout(timer);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
