/**
 * The seam for a provider type: what the registry needs to know about a way of speaking to models.
 * Adding a type is one module exporting a `ProviderKind` (its `LlmProvider` and these few facts),
 * listed in provider-kinds.ts, plus its name in the contract's `PROVIDER_TYPES`.
 */
import type { ProviderType } from '@contract';
import type { LlmProvider, ToolLimits } from './llm-types';

/** What a provider instance reads at each request (the user may change any of it at any time). */
export interface ProviderAccess {
  /** The provider's name, for messages ("Ollama at http://127.0.0.1:11434 is not running"). */
  name(): string;
  /** The base URL as entered ('' for the type's default). */
  baseUrl(): string;
  /** The key to use now; undefined when none is set. */
  apiKey(): Promise<string | undefined>;
  /** The message for a request that needs a key and has none. */
  missingKeyMessage(): string;
}

export interface ProviderKind {
  readonly type: ProviderType;
  /** Where requests go when the base URL is empty ('' when the type has no default). */
  readonly defaultBaseUrl: string;
  /**
   * The environment variable whose URL web mode uses instead of `defaultBaseUrl` when the base URL is
   * empty, as the provider's own SDK does (e.g. ANTHROPIC_BASE_URL).
   */
  readonly baseUrlEnv?: string;
  /**
   * The SDK's own default base URL, which `baseUrlEnv` replaces even when it is set explicitly: the
   * OpenAI preset stores https://api.openai.com/v1, and the OpenAI SDK sends to OPENAI_BASE_URL instead.
   */
  readonly sdkBaseUrl?: string;
  /** Requests fail without a key (else the key is optional: local endpoints need none). */
  readonly keyRequired: boolean;
  /** The environment variable web mode may take this provider's key from, for a base URL (none: undefined). */
  envKey(baseUrl: string): string | undefined;
  readonly toolLimits: ToolLimits;
  create(access: ProviderAccess): LlmProvider;
}
