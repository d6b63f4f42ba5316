/**
 * Runs the scripted Messages API (e2e/fixtures/scripted-llm/server.mjs) as a child process and
 * drives it over HTTP. Used by the core tests and the Playwright specs alike, so it imports neither
 * vitest nor Playwright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCRIPTED_LLM_ENTRY = fileURLToPath(new URL('../../../../e2e/fixtures/scripted-llm/server.mjs', import.meta.url));

/** One scripted answer (see the server's header comment). */
export type ScriptStep =
  | { type: 'text'; text: string; chunks?: number | string[]; delayMs?: number; hang?: boolean; stopReason?: string }
  | {
      type: 'tool_use';
      text?: string;
      calls: { name?: string; nameEndsWith?: string; input?: Record<string, unknown>; id?: string }[];
      chunks?: number | string[];
      delayMs?: number;
      hang?: boolean;
      stopReason?: string;
    }
  | { type: 'error'; status: number; errorType?: string; message?: string; retryAfter?: number }
  | { type: 'stream-error'; text?: string; errorType?: string; message?: string }
  | { type: 'disconnect'; text?: string };

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  credential: { scheme: 'bearer' | 'x-api-key' | null; key: string | null };
  /** The Messages API body (model, messages, tools, system…), null for GETs. */
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    stream?: boolean;
    tools?: { name: string; description?: string; input_schema: Record<string, unknown> }[];
    messages: { role: 'user' | 'assistant'; content: string | ({ type: string } & Record<string, unknown>)[] }[];
  } | null;
}

export interface ScriptedLlm {
  /** e.g. http://127.0.0.1:43121 (what the base URL setting takes). */
  readonly url: string;
  /** Replaces (or appends to) the queue of answers. */
  script(responses: ScriptStep[], options?: { append?: boolean; models?: { id: string; display_name: string }[] }): Promise<void>;
  /** Every request so far (Messages API calls and model listings). */
  requests(): Promise<RecordedRequest[]>;
  /** Only the POST /v1/messages requests. */
  messageRequests(): Promise<RecordedRequest[]>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/** Starts a scripted server on a free port; resolves once it listens. */
export function startScriptedLlm(options: { timeoutMs?: number } = {}): Promise<ScriptedLlm> {
  const child: ChildProcess = spawn(process.execPath, [SCRIPTED_LLM_ENTRY, '--port', '0'], {
    cwd: path.dirname(SCRIPTED_LLM_ENTRY),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The scripted LLM did not start: ${output}`));
    }, options.timeoutMs ?? 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const url = match[1];
      const requests = async () => {
        const res = await fetch(`${url}/__requests`);
        return ((await res.json()) as { requests: RecordedRequest[] }).requests;
      };
      resolve({
        url,
        async script(responses, extra = {}) {
          await post(`${url}/__script`, { responses, ...extra });
        },
        requests,
        async messageRequests() {
          return (await requests()).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/messages'));
        },
        async reset() {
          await post(`${url}/__reset`, {});
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
