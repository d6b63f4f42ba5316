/**
 * The Anthropic provider: `@anthropic-ai/sdk`, streaming, with the key, base URL and timeouts read
 * at each request (the user may change them at any time). `maxRetries: 0`: retrying is the user's
 * choice (the Retry button), never a silent wait.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ModelList } from '@contract';
import { StreamAssembler, toLlmError, toMessageParams } from './anthropic-mapping';
import { hostOf, LlmError, NO_API_KEY_MESSAGE } from './llm-errors';
import type { LlmCallOptions, LlmProvider, LlmRequest, LlmStreamEvent } from './llm-types';
import type { ProviderKind } from './provider-kind';

/** Where requests go when the base URL setting is empty. */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Current models, for when the Models API cannot be asked (no key, offline, a gateway without it). */
export const FALLBACK_MODELS: ModelList['models'] = [
  { id: 'claude-sonnet-5-5', displayName: 'Claude Sonnet 5.5' },
  { id: 'claude-opus-5-5', displayName: 'Claude Opus 5.5' },
  { id: 'claude-haiku-5-5', displayName: 'Claude Haiku 5.5' },
];

export interface AnthropicProviderOptions {
  /** The key to use now; undefined when none is set. */
  apiKey(): Promise<string | undefined>;
  /** The base URL setting now ('' for the default). */
  baseUrl(): string;
  /** What a request without a key says (default: where Settings' quick field is). */
  missingKeyMessage?(): string;
  /** Per-request timeout of the SDK (default 10 minutes, the SDK's own). */
  timeoutMs?: number;
  /** How long the models list may take before the built-in list is used. */
  modelsTimeoutMs?: number;
}

export class AnthropicProvider implements LlmProvider {
  constructor(private readonly options: AnthropicProviderOptions) {}

  async *createMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncGenerator<LlmStreamEvent> {
    const { client, baseUrl } = await this.client(this.options.timeoutMs);
    const { signal } = options;
    if (signal?.aborted) throw new LlmError('cancelled', 'Stopped.');
    const assembler = new StreamAssembler();
    let stream: AsyncIterable<Anthropic.RawMessageStreamEvent>;
    try {
      stream = await client.messages.create(toMessageParams(request), { signal });
    } catch (error) {
      throw toLlmError(error, baseUrl, signal);
    }
    let finished = false;
    try {
      for await (const raw of stream) {
        for (const event of assembler.accept(raw)) {
          if (event.type === 'message-stop') finished = true;
          yield event;
        }
      }
    } catch (error) {
      throw toLlmError(error, baseUrl, signal);
    }
    if (signal?.aborted) throw new LlmError('cancelled', 'Stopped.');
    if (!finished) {
      throw new LlmError('network', `The answer from ${hostOf(baseUrl)} stopped before it was complete. Retry to try again.`);
    }
  }

  async listModels(options: LlmCallOptions = {}): Promise<ModelList> {
    let client: Anthropic;
    try {
      ({ client } = await this.client(this.options.modelsTimeoutMs ?? 5_000));
    } catch (error) {
      return { models: FALLBACK_MODELS, source: 'fallback', note: (error as Error).message };
    }
    try {
      const models: ModelList['models'] = [];
      for await (const model of client.models.list({ limit: 100 }, { signal: options.signal })) {
        models.push({ id: model.id, displayName: model.display_name || model.id });
        if (models.length >= 500) break;
      }
      if (models.length === 0) return { models: FALLBACK_MODELS, source: 'fallback', note: 'The Models API listed no models.' };
      return { models, source: 'api' };
    } catch (error) {
      const why = toLlmError(error, client.baseURL, options.signal).message;
      return { models: FALLBACK_MODELS, source: 'fallback', note: `Could not list models: ${why}` };
    }
  }

  /** A client for the current key and base URL (cheap to make; one per request keeps settings live). */
  private async client(timeoutMs: number | undefined): Promise<{ client: Anthropic; baseUrl: string }> {
    const apiKey = await this.options.apiKey();
    if (!apiKey) throw new LlmError('no-api-key', this.options.missingKeyMessage?.() ?? NO_API_KEY_MESSAGE);
    const baseUrl = this.options.baseUrl() || DEFAULT_ANTHROPIC_BASE_URL;
    // Every option is explicit so nothing is picked up from the host's environment or profile files.
    const client = new Anthropic({
      apiKey,
      baseURL: baseUrl,
      maxRetries: 0,
      ...(timeoutMs ? { timeout: timeoutMs } : {}),
      logLevel: 'error',
    });
    return { client, baseUrl };
  }
}

/** The Anthropic type: the Messages API, a key always needed (web mode may take ANTHROPIC_API_KEY). */
export const anthropicKind: ProviderKind = {
  type: 'anthropic',
  defaultBaseUrl: DEFAULT_ANTHROPIC_BASE_URL,
  baseUrlEnv: 'ANTHROPIC_BASE_URL',
  keyRequired: true,
  envKey: () => 'ANTHROPIC_API_KEY',
  // The Messages API documents no tool count limit; Claude models take 200k tokens of context.
  toolLimits: { contextTokens: 200_000 },
  create: (access) =>
    new AnthropicProvider({ apiKey: access.apiKey, baseUrl: access.baseUrl, missingKeyMessage: access.missingKeyMessage }),
};
