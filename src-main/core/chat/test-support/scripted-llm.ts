/**
 * Runs the scripted Messages API (e2e/fixtures/scripted-llm/server.mjs) as a child process and
 * drives it over HTTP (src-main/test-support/scripted-process.ts). Used by the core tests and the
 * Playwright specs alike, so it imports neither vitest nor Playwright.
 */
import { fileURLToPath } from 'node:url';
import { startScriptedProcess } from '../../../test-support/scripted-process';

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
  | { type: 'disconnect'; text?: string }
  /** Calls the tool ending so when offered, else the host's search tool with `query` first (e2e/fixtures/lib/find-tool.mjs). */
  | { type: 'find_tool'; nameEndsWith: string; query?: string; input?: Record<string, unknown>; searchTool?: string };

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

/** Starts a scripted server on a free port; resolves once it listens. */
export async function startScriptedLlm(options: { timeoutMs?: number } = {}): Promise<ScriptedLlm> {
  const server = await startScriptedProcess<ScriptStep, RecordedRequest>(SCRIPTED_LLM_ENTRY, 'scripted LLM', options);
  return {
    ...server,
    script: (responses, extra) => server.script(responses, extra),
    async messageRequests() {
      return (await server.requests()).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/messages'));
    },
  };
}
