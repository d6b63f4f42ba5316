/**
 * The scripted OpenAI-compatible endpoint (e2e/fixtures/scripted-openai/server.mjs) as a child
 * process, driven over HTTP. Shared by the provider, chat and sampling tests, the Playwright specs
 * and the benchmark, so it imports neither vitest nor Playwright.
 */
import { fileURLToPath } from 'node:url';
import { startScriptedProcess } from './scripted-process';

export const SCRIPTED_OPENAI_ENTRY = fileURLToPath(new URL('../../e2e/fixtures/scripted-openai/server.mjs', import.meta.url));

interface StreamShape {
  chunks?: number | string[];
  /** Before each piece. */
  delayMs?: number;
  /** Before the first content piece (a model's time to first token). */
  firstDelayMs?: number;
  hang?: boolean;
  finishReason?: string;
  usage?: { prompt?: number; completion?: number };
}

/** One scripted answer (see the server's header comment). */
export type OpenAiScriptStep =
  | ({ type: 'text'; text: string; bulkChars?: number } & StreamShape)
  | ({
      type: 'tool_calls';
      text?: string;
      calls: { name?: string; nameEndsWith?: string; arguments?: Record<string, unknown> | string; id?: string; noId?: boolean }[];
      argChunks?: number;
      interleave?: boolean;
    } & StreamShape)
  | {
      type: 'error';
      status: number;
      message?: string;
      code?: string;
      errorType?: string;
      param?: string;
      retryAfter?: number;
      raw?: string;
    }
  | { type: 'stream-error'; text?: string; message?: string }
  | { type: 'disconnect'; text?: string }
  /** Calls the tool ending so when offered, else the host's search tool with `query` first (e2e/fixtures/lib/find-tool.mjs). */
  | { type: 'find_tool'; nameEndsWith: string; query?: string; input?: Record<string, unknown>; searchTool?: string };

/** A Chat Completions message as the server received it. */
export interface ReceivedChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | ({ type: string } & Record<string, unknown>)[];
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface OpenAiRecordedRequest {
  method: string;
  path: string;
  credential: { scheme: 'bearer' | null; key: string | null };
  /** When the server received it (ms since the epoch; chat completions only). */
  receivedAt?: number;
  /** Characters of a `bulkChars` step streamed before the client stopped reading (or all of them). */
  streamedChars?: number;
  body: {
    model: string;
    messages: ReceivedChatMessage[];
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    max_tokens?: number;
    max_completion_tokens?: number;
    tools?: { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
    temperature?: number;
    stop?: string[];
  } | null;
}

export interface ScriptedOpenAiOptions {
  append?: boolean;
  /** Model ids GET /v1/models lists. */
  models?: string[];
  /** Require this bearer key (null: none required). */
  apiKey?: string | null;
  /** Answer requests carrying `stream_options` with a 400, as older servers do. */
  rejectStreamOptions?: boolean;
}

export interface ScriptedOpenAi {
  /** e.g. http://127.0.0.1:43121/v1: the provider's base URL. */
  readonly url: string;
  script(responses: OpenAiScriptStep[], options?: ScriptedOpenAiOptions): Promise<void>;
  requests(): Promise<OpenAiRecordedRequest[]>;
  /** Only the POST /v1/chat/completions requests. */
  chatRequests(): Promise<OpenAiRecordedRequest[]>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the scripted endpoint on a free port; resolves once it listens. */
export async function startScriptedOpenAi(options: { timeoutMs?: number } = {}): Promise<ScriptedOpenAi> {
  const server = await startScriptedProcess<OpenAiScriptStep, OpenAiRecordedRequest>(SCRIPTED_OPENAI_ENTRY, 'scripted OpenAI API', options);
  return {
    ...server,
    script: (responses, extra) => server.script(responses, { ...extra }),
    async chatRequests() {
      return (await server.requests()).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/chat/completions'));
    },
  };
}
