/**
 * Choices → providers: a conversation's model (or the default from Settings) resolved to the
 * provider that serves it. A choice naming a removed provider falls back to the default; a default
 * naming a removed provider falls back to the Anthropic provider, so a turn always has somewhere to go.
 */
import { PRIMARY_PROVIDER_ID } from '@contract';
import type { ModelChoice, ModelRoute, ModelRouter } from './llm-types';
import type { ProviderRegistry } from './provider-registry';

export class ProviderRouter implements ModelRouter {
  constructor(
    private readonly registry: ProviderRegistry,
    /** The default model as Settings have it now. */
    private readonly defaults: () => ModelChoice,
  ) {}

  defaultChoice(): ModelChoice {
    const wanted = this.defaults();
    if (this.registry.find(wanted.providerId)) return wanted;
    return { providerId: PRIMARY_PROVIDER_ID, model: wanted.model };
  }

  route(choice: Partial<ModelChoice> = {}): ModelRoute {
    const resolved =
      choice.providerId && choice.model && this.registry.find(choice.providerId)
        ? { providerId: choice.providerId, model: choice.model }
        : this.defaultChoice();
    const stored = this.registry.find(resolved.providerId)!;
    return {
      ...resolved,
      provider: this.registry.provider(resolved.providerId),
      providerName: stored.name,
      offerTools: !stored.noToolModels.includes(resolved.model),
      toolLimits: this.registry.toolLimits(resolved.providerId),
    };
  }

  markWithoutTools(choice: ModelChoice): void {
    this.registry.markWithoutTools(choice.providerId, choice.model);
  }
}
