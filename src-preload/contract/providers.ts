import { z } from 'zod';
import type { ApiKeyStatus, ModelInfo } from './chat';
import { ApiKeyString } from './chat';
import { ByIdSchema, IdString, method, NoInput } from './method';

/**
 * Model providers: where chat turns and sampling requests go. Each provider is a type (how to speak
 * to it), a name, a base URL, an optional API key (sealed in the host, never sent back) and the models
 * its models API lists. Anthropic's Messages API and any OpenAI-compatible Chat Completions endpoint
 * (OpenAI, OpenRouter, Ollama, LM Studio, llama.cpp, vLLM…) are the types today.
 */

export const PROVIDER_TYPES = ['anthropic', 'openai-compatible'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];
export const PROVIDER_TYPE_LABELS: Readonly<Record<ProviderType, string>> = {
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible',
};

/**
 * The Anthropic provider every install has (made from the earlier Anthropic settings): Settings'
 * quick fields (Anthropic base URL, API key) edit it, and it cannot be removed.
 */
export const PRIMARY_PROVIDER_ID = 'anthropic';

export interface ProviderView {
  id: string;
  type: ProviderType;
  name: string;
  /** As entered ('' for an Anthropic provider: Anthropic's API). */
  baseUrl: string;
  /** Where requests go (the base URL, or the type's default). */
  endpoint: string;
  /** Whether a key is set and where it is kept; never the key. */
  apiKey: ApiKeyStatus;
  /** The type cannot make a request without a key (Anthropic); OpenAI-compatible keys are optional. */
  keyRequired: boolean;
  /** The models the endpoint listed when last asked (a built-in list for Anthropic when it could not be asked). */
  models: ModelInfo[];
  modelsFetchedAt?: string;
  /** Why the list is not from the endpoint, or what went wrong asking it. */
  modelsNote?: string;
  /** Models that refused the tools they were offered; the chat offers them none. */
  modelsWithoutTools: string[];
  /** The Anthropic provider of Settings' quick fields (not removable). */
  primary: boolean;
}

export type ProviderPresetId = 'ollama' | 'lm-studio' | 'openai' | 'openrouter';

/** A known endpoint: the Add provider form fills its type, name and base URL. */
export interface ProviderPreset {
  id: ProviderPresetId;
  name: string;
  type: ProviderType;
  baseUrl: string;
  /** Runs on this computer (detected when its default port answers). */
  local: boolean;
  /** Where to get a key, for remote services. */
  keyHint?: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'ollama', name: 'Ollama', type: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', local: true },
  { id: 'lm-studio', name: 'LM Studio', type: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', local: true },
  {
    id: 'openai',
    name: 'OpenAI',
    type: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    local: false,
    keyHint: 'platform.openai.com → API keys',
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    type: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    local: false,
    keyHint: 'openrouter.ai → Keys',
  },
];

/** Whether a local preset's server answered its models endpoint just now. */
export interface PresetDetection {
  presetId: ProviderPresetId;
  running: boolean;
  /** How many models it listed. */
  models?: number;
}

export interface ProvidersSnapshot {
  /** In the order they were added (the Anthropic provider first). */
  providers: ProviderView[];
}

const NameSchema = z.string().trim().min(1, 'A name is required').max(100, 'At most 100 characters');
const BaseUrlSchema = z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'Enter an http or https URL' })]);

const AddProviderSchema = z
  .object({
    type: z.enum(PROVIDER_TYPES),
    name: NameSchema,
    baseUrl: z.string().trim().pipe(BaseUrlSchema),
    /** Optional: local endpoints need none. */
    apiKey: ApiKeyString.optional(),
  })
  .strict()
  .refine((p) => p.type !== 'openai-compatible' || p.baseUrl !== '', {
    path: ['baseUrl'],
    message: 'An OpenAI-compatible provider needs its base URL (e.g. http://127.0.0.1:11434/v1)',
  });

const UpdateProviderSchema = z
  .object({
    id: IdString,
    name: NameSchema.optional(),
    baseUrl: z.string().trim().pipe(BaseUrlSchema).optional(),
    /** A new key (replaces the stored one). */
    apiKey: ApiKeyString.optional(),
    /** Forget the stored key. */
    clearApiKey: z.boolean().optional(),
    /** Offer tools again to models that refused them. */
    offerToolsAgain: z.boolean().optional(),
  })
  .strict();

export const providerMethods = {
  /** Adds a provider (its key sealed at once), then asks its models API in the background. */
  addProvider: method<typeof AddProviderSchema, ProviderView>(AddProviderSchema),
  updateProvider: method<typeof UpdateProviderSchema, ProviderView>(UpdateProviderSchema),
  /** Conversations that used it go back to the default model. The Anthropic provider cannot be removed. */
  removeProvider: method<typeof ByIdSchema, void>(ByIdSchema),
  /** Asks the provider's models API now; resolves with the provider and its new list (or a note why not). */
  refreshProviderModels: method<typeof ByIdSchema, ProviderView>(ByIdSchema),
  /** Probes the local presets' default ports (from the host, loopback only). */
  detectLocalProviders: method<typeof NoInput, PresetDetection[]>(NoInput),
};

export interface ProviderEvents {
  /** Any provider was added, changed, removed or got a new model list. */
  providersChanged: ProviderView[];
}
