/**
 * The OpenAI-compatible provider: the official `openai` SDK's streaming Chat Completions, which
 * OpenAI, OpenRouter, Azure OpenAI, Groq, Mistral and local servers (Ollama, LM Studio, llama.cpp,
 * vLLM) all speak. Like the Anthropic provider it reads the key and base URL at each request and
 * never retries by itself (`maxRetries: 0`: Retry is the user's).
 */
import OpenAI from 'openai';
import type { ModelList } from '@contract';
import { LlmError } from './llm-errors';
import type { LlmCallOptions, LlmProvider, LlmRequest, LlmStreamEvent } from './llm-types';
import { toChatParams, tokenFieldFor } from './openai-mapping';
import { toOpenAiError, type FailureContext } from './openai-errors';
import { ChunkAssembler } from './openai-stream';
import type { ProviderAccess, ProviderKind } from './provider-kind';

export interface OpenAiProviderOptions extends Pick<ProviderAccess, 'name' | 'baseUrl' | 'apiKey'> {
  /** Per-request timeout (default 10 minutes: a local model may think long). */
  timeoutMs?: number;
  /** How long the models list may take. */
  modelsTimeoutMs?: number;
}

/** What a 400 says when a server does not know `stream_options` (it is then left out for this provider). */
const NO_STREAM_OPTIONS = /stream_options|include_usage/i;

export class OpenAiCompatibleProvider implements LlmProvider {
  /** The endpoint refused `stream_options` once: usage is then whatever it reports by itself. */
  private withoutStreamOptions = false;

  constructor(private readonly options: OpenAiProviderOptions) {}

  async *createMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncGenerator<LlmStreamEvent> {
    const { signal } = options;
    const { client, ctx } = await this.client(this.options.timeoutMs, request.model);
    if (signal?.aborted) throw new LlmError('cancelled', 'Stopped.');
    const stream = await this.open(client, request, ctx, signal);
    const assembler = new ChunkAssembler();
    try {
      for await (const chunk of stream) yield* assembler.accept(chunk);
    } catch (error) {
      throw toOpenAiError(error, ctx, signal);
    }
    if (signal?.aborted) throw new LlmError('cancelled', 'Stopped.');
    if (!assembler.complete) {
      throw new LlmError('network', `The answer from ${ctx.name} stopped before it was complete. Retry to try again.`);
    }
    yield* assembler.finish();
  }

  /** Starts the stream; a server that refuses `stream_options` is asked again without it, once. */
  private async open(client: OpenAI, request: LlmRequest, ctx: FailureContext, signal: AbortSignal | undefined) {
    const tokenField = tokenFieldFor(ctx.baseUrl);
    try {
      return await client.chat.completions.create(toChatParams(request, { tokenField, includeUsage: !this.withoutStreamOptions }), {
        signal,
      });
    } catch (error) {
      const refusedOption = error instanceof OpenAI.BadRequestError && NO_STREAM_OPTIONS.test(error.message);
      if (!refusedOption || this.withoutStreamOptions) throw toOpenAiError(error, ctx, signal);
    }
    this.withoutStreamOptions = true;
    try {
      return await client.chat.completions.create(toChatParams(request, { tokenField, includeUsage: false }), { signal });
    } catch (error) {
      throw toOpenAiError(error, ctx, signal);
    }
  }

  async listModels(options: LlmCallOptions = {}): Promise<ModelList> {
    const { client, ctx } = await this.client(this.options.modelsTimeoutMs ?? 5_000);
    try {
      const models: ModelList['models'] = [];
      for await (const model of client.models.list({ signal: options.signal })) {
        models.push({ id: model.id, displayName: model.id });
        if (models.length >= 1000) break;
      }
      if (models.length === 0) return { models, source: 'fallback', note: `${ctx.name} listed no models.` };
      models.sort((a, b) => a.id.localeCompare(b.id));
      return { models, source: 'api' };
    } catch (error) {
      return { models: [], source: 'fallback', note: `Could not list models: ${toOpenAiError(error, ctx, options.signal).message}` };
    }
  }

  private async client(timeoutMs: number | undefined, model?: string): Promise<{ client: OpenAI; ctx: FailureContext }> {
    const apiKey = await this.options.apiKey();
    const baseUrl = this.options.baseUrl().replace(/\/+$/, '');
    // Every option is explicit so nothing comes from the host's environment (OPENAI_BASE_URL,
    // OPENAI_ORG_ID…). Without a key (local servers) the Authorization header is left out entirely.
    const client = new OpenAI({
      apiKey: apiKey ?? 'no-key',
      adminAPIKey: null,
      baseURL: baseUrl,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: 0,
      ...(timeoutMs ? { timeout: timeoutMs } : {}),
      logLevel: 'error',
      ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    });
    return { client, ctx: { name: this.options.name(), baseUrl, ...(model ? { model } : {}) } };
  }
}

/** The OpenAI-compatible type: any base URL (required), the key optional (local servers need none). */
export const openAiCompatibleKind: ProviderKind = {
  type: 'openai-compatible',
  defaultBaseUrl: '',
  baseUrlEnv: 'OPENAI_BASE_URL',
  sdkBaseUrl: 'https://api.openai.com/v1',
  keyRequired: false,
  // OPENAI_API_KEY goes to OpenAI's own API only, never to another endpoint typed in Patchbay (it is asked
  // with the configured URL: when OPENAI_BASE_URL redirects OpenAI's API, the key follows, as in the SDK).
  envKey: (baseUrl) => {
    try {
      return new URL(baseUrl).hostname === 'api.openai.com' ? 'OPENAI_API_KEY' : undefined;
    } catch {
      return undefined;
    }
  },
  // OpenAI refuses a request with more than 128 tools; servers that copy its API keep the limit or take fewer.
  // Context: OpenAI's models take 128k tokens or more; local ones often less, so tool search engages sooner there is no harm.
  toolLimits: { maxTools: 128, contextTokens: 128_000 },
  create: (access) => new OpenAiCompatibleProvider({ name: access.name, baseUrl: access.baseUrl, apiKey: access.apiKey }),
};
