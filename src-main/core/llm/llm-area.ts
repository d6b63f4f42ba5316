/**
 * Builds the provider area for the composition root in two steps. `createProviderRegistry`, made
 * before the settings area: the providers table and keys, the registry, and the Anthropic base URL
 * Settings keep as their `anthropicBaseUrl` (stored as the provider's). `createLlmArea`, made from the
 * registry and the settings: the router chat and sampling resolve models with (its default is a
 * setting), the contract's provider handlers, and the Anthropic key's quick methods
 * (`setApiKey`/`clearApiKey`). The two steps break what would be a cycle: Settings read the base URL
 * from the registry, the router reads the default model from Settings.
 */
import type Database from 'better-sqlite3';
import {
  DEFAULT_SETTINGS,
  PRIMARY_PROVIDER_ID,
  PROVIDER_PRESETS,
  type HandlersFor,
  type HostMode,
  type LlmStatus,
  type ModelList,
  type ProviderPreset,
  type providerMethods,
  type ProvidersSnapshot,
  type Settings,
} from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { SecretBox } from '../secrets/secret-box';
import type { LinkedSettings } from '../settings/settings-repository';
import { isLoopbackUrl } from './llm-errors';
import type { ModelChoice, ModelRouter, ProviderModel } from './llm-types';
import { detectLocalPresets } from './local-presets';
import { ProviderRouter } from './model-router';
import { ProviderKeys } from './provider-keys';
import { ProviderRegistry } from './provider-registry';
import { ProviderRepository } from './provider-repository';

export interface ProviderRegistryOptions {
  db: Database.Database;
  mode: HostMode;
  secrets: SecretBox;
  /** The host's environment (web mode takes ANTHROPIC_API_KEY / OPENAI_API_KEY from it). */
  env: Record<string, string | undefined>;
  events: HostEventBus;
  clock: Clock;
}

/** The registry of providers, and the setting it stores (`anthropicBaseUrl`: the Anthropic provider's base URL). */
export function createProviderRegistry(options: ProviderRegistryOptions): { registry: ProviderRegistry; linkedSettings: LinkedSettings } {
  const { clock } = options;
  const repo = new ProviderRepository(options.db);
  const keys = new ProviderKeys({ repo, secrets: options.secrets, mode: options.mode, env: options.env, now: clock.now });
  // Web mode is started from a shell: like the providers' SDKs, it honours their base-URL variables there.
  const envBaseUrl = (name: string) => (options.mode === 'web' ? options.env[name]?.trim() || undefined : undefined);
  const registry = new ProviderRegistry({ repo, keys, events: options.events, clock, envBaseUrl });
  const linkedSettings: LinkedSettings = {
    keys: ['anthropicBaseUrl'],
    read: (): Partial<Settings> => ({ anthropicBaseUrl: registry.find(PRIMARY_PROVIDER_ID)?.baseUrl ?? '' }),
    write: (patch) => {
      if (patch.anthropicBaseUrl !== undefined) registry.setBaseUrlNow(PRIMARY_PROVIDER_ID, patch.anthropicBaseUrl);
    },
  };
  return { registry, linkedSettings };
}

export interface LlmAreaOptions {
  registry: ProviderRegistry;
  /** The default model as Settings have it now. */
  defaults(): ModelChoice;
  /** The default's provider was removed: the default becomes this (the primary provider's first model). */
  resetDefault?(choice: ModelChoice): void;
  /** The Anthropic provider's base URL changed through Settings › Providers: the quick field shows it. */
  onQuickFieldChanged?(): void;
  /** The presets whose default ports are probed (tests point them at scripted servers). */
  presets?: readonly ProviderPreset[];
}

/** What the chat's older key and model methods do now: act on the Anthropic provider and the default. */
export interface QuickLlmControls {
  setKey(apiKey: string): Promise<LlmStatus>;
  clearKey(): Promise<LlmStatus>;
  /** The default provider's models, asked now. */
  listModels(): Promise<ModelList>;
}

export interface LlmArea {
  readonly name: 'llm';
  registry: ProviderRegistry;
  router: ModelRouter;
  handlers: HandlersFor<typeof providerMethods>;
  quick: QuickLlmControls;
  /**
   * Calls `listener` with the id of each provider the user removes, before the default moves off it.
   * The areas made later that keep a provider's id (the chat's conversations) listen here: they are
   * made from this area, so it cannot be made from them.
   */
  whenProviderRemoved(listener: (id: string) => void): void;
  snapshot(): { providers: ProvidersSnapshot };
  status(): LlmStatus;
  /** Every provider's listed models (sampling chooses among them). */
  models(): ProviderModel[];
  /** After start: opens the stored keys (reporting one that cannot be opened) and lists models never listed. */
  start(): void;
  dispose(): void;
}

export function createLlmArea(options: LlmAreaOptions): LlmArea {
  const { registry } = options;
  const removedListeners: ((id: string) => void)[] = [];
  const router = new ProviderRouter(registry, options.defaults);
  const status = (): LlmStatus => ({ apiKey: registry.primaryKeyStatus() });

  const handlers: HandlersFor<typeof providerMethods> = {
    addProvider: async (input) => registry.add(input),
    updateProvider: async (change) => {
      const before = registry.find(change.id)?.baseUrl;
      const view = await registry.update(change);
      if (view.primary && view.baseUrl !== before) options.onQuickFieldChanged?.();
      return view;
    },
    removeProvider: async ({ id }) => {
      registry.remove(id);
      for (const listener of removedListeners) listener(id);
      if (options.resetDefault && options.defaults().providerId === id) {
        const model = registry.view(PRIMARY_PROVIDER_ID).models[0]?.id ?? DEFAULT_SETTINGS.defaultModel;
        options.resetDefault({ providerId: PRIMARY_PROVIDER_ID, model });
      }
    },
    refreshProviderModels: async ({ id }) => registry.refreshModels(id),
    detectLocalProviders: async () => detectLocalPresets(options.presets ?? PROVIDER_PRESETS),
  };

  const quick: QuickLlmControls = {
    setKey: async (apiKey) => {
      await registry.update({ id: PRIMARY_PROVIDER_ID, apiKey });
      return status();
    },
    clearKey: async () => {
      await registry.update({ id: PRIMARY_PROVIDER_ID, clearApiKey: true });
      return status();
    },
    listModels: async () => {
      const view = await registry.refreshModels(router.defaultChoice().providerId);
      return { models: view.models, source: view.modelsNote ? 'fallback' : 'api', ...(view.modelsNote ? { note: view.modelsNote } : {}) };
    },
  };

  return {
    name: 'llm',
    registry,
    router,
    handlers,
    quick,
    whenProviderRemoved: (listener) => void removedListeners.push(listener),
    snapshot: () => ({ providers: { providers: registry.views() } }),
    status,
    models: () =>
      registry.views().flatMap((p) =>
        p.models.map((m) => ({
          providerId: p.id,
          providerName: p.name,
          id: m.id,
          displayName: m.displayName,
          local: isLoopbackUrl(p.endpoint),
        })),
      ),
    start: () => {
      void registry.checkKeys().catch(() => undefined); // the host may have been disposed meanwhile
      registry.refreshUnlisted();
    },
    dispose: () => registry.dispose(),
  };
}
