/** Every provider type by its contract name: the one list a new type is added to. */
import type { ProviderType } from '@contract';
import { anthropicKind } from './anthropic-provider';
import { openAiCompatibleKind } from './openai-provider';
import type { ProviderKind } from './provider-kind';

export const PROVIDER_KINDS: Readonly<Record<ProviderType, ProviderKind>> = {
  anthropic: anthropicKind,
  'openai-compatible': openAiCompatibleKind,
};
