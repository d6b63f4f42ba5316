import { PRIMARY_PROVIDER_ID, type ProviderView } from '@contract';

const STORAGE = "Encrypted in Patchbay's database with a key kept in secrets.key (owner-only permissions).";

/** The Anthropic provider as a fresh install has it, with the given changes. */
export function anthropicProvider(over: Partial<ProviderView> = {}): ProviderView {
  return {
    id: PRIMARY_PROVIDER_ID,
    type: 'anthropic',
    name: 'Anthropic',
    baseUrl: '',
    endpoint: 'https://api.anthropic.com',
    apiKey: { state: 'not-set', storage: STORAGE },
    keyRequired: true,
    models: [
      { id: 'claude-sonnet-5-5', displayName: 'Claude Sonnet 5.5' },
      { id: 'claude-opus-5-5', displayName: 'Claude Opus 5.5' },
    ],
    modelsWithoutTools: [],
    primary: true,
    ...over,
  };
}

/** A local OpenAI-compatible provider (Ollama on its default port), with the given changes. */
export function localProvider(over: Partial<ProviderView> = {}): ProviderView {
  return {
    id: 'p-ollama',
    type: 'openai-compatible',
    name: 'Ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    endpoint: 'http://127.0.0.1:11434/v1',
    apiKey: { state: 'not-set', storage: STORAGE },
    keyRequired: false,
    models: [
      { id: 'llama3.1:8b', displayName: 'llama3.1:8b' },
      { id: 'qwen2.5:7b', displayName: 'qwen2.5:7b' },
    ],
    modelsFetchedAt: '2026-01-01T00:00:00.000Z',
    modelsWithoutTools: [],
    primary: false,
    ...over,
  };
}
