/**
 * The configured providers: add, change, remove, their keys (sealed), their model lists (asked of
 * each endpoint's models API and cached), and one `LlmProvider` per provider built by its type's
 * module. Every change is reported as `providersChanged` (and the Anthropic provider's key as
 * `llmStatusChanged`, which Settings' quick field and the chat's guidance show).
 */
import { HostCallError, PRIMARY_PROVIDER_ID, type ApiKeyStatus, type ProviderType, type ProviderView } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { LlmProvider } from './llm-types';
import { forModelListing, noApiKeyMessage, NO_API_KEY_MESSAGE } from './llm-errors';
import type { ProviderKind } from './provider-kind';
import type { ToolLimits } from './llm-types';
import { PROVIDER_KINDS } from './provider-kinds';
import type { ProviderKeys } from './provider-keys';
import type { ProviderRepository, StoredProvider } from './provider-repository';

export interface ProviderRegistryOptions {
  repo: ProviderRepository;
  keys: ProviderKeys;
  events: HostEventBus;
  clock: Clock;
  /** The provider types (tests may add one). */
  kinds?: Readonly<Record<ProviderType, ProviderKind>>;
  /** How long asking a models API may take. */
  modelsTimeoutMs?: number;
  /** A base URL from the environment for a type's default (web mode only; see `ProviderKind.baseUrlEnv`). */
  envBaseUrl?(name: string): string | undefined;
}

export interface ProviderInput {
  type: ProviderType;
  name: string;
  baseUrl: string;
  apiKey?: string;
}

export interface ProviderChange {
  id: string;
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  clearApiKey?: boolean;
  offerToolsAgain?: boolean;
}

export class ProviderRegistry {
  private readonly kinds: Readonly<Record<ProviderType, ProviderKind>>;
  private readonly instances = new Map<string, LlmProvider>();
  /** Aborts model-list requests still running at dispose. */
  private readonly lifetime = new AbortController();

  constructor(private readonly options: ProviderRegistryOptions) {
    this.kinds = options.kinds ?? PROVIDER_KINDS;
  }

  views(): ProviderView[] {
    return this.options.repo.list().map((p) => this.toView(p));
  }

  view(id: string): ProviderView {
    return this.toView(this.stored(id));
  }

  /** A provider that exists, or undefined. */
  find(id: string): StoredProvider | undefined {
    return this.options.repo.get(id);
  }

  /** What the provider's API takes in tools (its type's limits). */
  toolLimits(id: string): ToolLimits {
    return this.kindOf(this.stored(id)).toolLimits;
  }

  /** The `LlmProvider` of a provider (made once; it reads name, base URL and key at each request). */
  provider(id: string): LlmProvider {
    const existing = this.instances.get(id);
    if (existing) return existing;
    const kind = this.kindOf(this.stored(id));
    const current = () => this.options.repo.get(id);
    const created = kind.create({
      name: () => current()?.name ?? 'The removed provider',
      baseUrl: () => this.endpointOf(current()),
      apiKey: () => this.options.keys.resolve(id, kind.envKey(this.configuredUrlOf(current()))),
      missingKeyMessage: () => (id === PRIMARY_PROVIDER_ID ? NO_API_KEY_MESSAGE : noApiKeyMessage(current()?.name ?? 'this provider')),
    });
    this.instances.set(id, created);
    return created;
  }

  async add(input: ProviderInput): Promise<ProviderView> {
    const sealedKey = input.apiKey ? await this.options.keys.seal(input.apiKey) : null;
    const stored = this.options.repo.insert({ type: input.type, name: input.name, baseUrl: input.baseUrl, sealedKey }, this.now());
    this.publish();
    void this.refreshModels(stored.id).catch(() => undefined);
    return this.toView(stored);
  }

  async update(change: ProviderChange): Promise<ProviderView> {
    const before = this.stored(change.id);
    if (before.type === 'openai-compatible' && change.baseUrl === '') {
      throw new HostCallError('invalid_input', 'An OpenAI-compatible provider needs its base URL', [
        { path: ['baseUrl'], message: 'An OpenAI-compatible provider needs its base URL (e.g. http://127.0.0.1:11434/v1)' },
      ]);
    }
    const name = change.name ?? before.name;
    const baseUrl = change.baseUrl ?? before.baseUrl;
    if (name !== before.name || baseUrl !== before.baseUrl) this.options.repo.update(before.id, { name, baseUrl }, this.now());
    if (change.apiKey) await this.options.keys.set(before.id, change.apiKey);
    else if (change.clearApiKey) this.options.keys.clear(before.id);
    if (change.offerToolsAgain) this.options.repo.setNoToolModels(before.id, []);
    // A new endpoint or key: forget what the old instance learnt about its endpoint, and ask for its models.
    const endpointChanged = baseUrl !== before.baseUrl || change.apiKey !== undefined || change.clearApiKey;
    if (endpointChanged) this.instances.delete(before.id);
    this.publish(change.apiKey !== undefined || change.clearApiKey === true ? before.id : undefined);
    if (endpointChanged) void this.refreshModels(before.id).catch(() => undefined);
    return this.view(before.id);
  }

  /**
   * Sets a base URL synchronously (Settings' quick field, written inside the settings transaction);
   * the models are asked for afterwards.
   */
  setBaseUrlNow(id: string, baseUrl: string): void {
    const before = this.stored(id);
    if (before.baseUrl === baseUrl) return;
    this.options.repo.update(id, { name: before.name, baseUrl }, this.now());
    this.instances.delete(id);
    // After the caller's transaction committed (a rolled back one reports the unchanged state).
    queueMicrotask(() => {
      this.publish();
      void this.refreshModels(id).catch(() => undefined);
    });
  }

  remove(id: string): void {
    if (id === PRIMARY_PROVIDER_ID) {
      throw new HostCallError(
        'invalid_input',
        "The Anthropic provider holds Settings' quick fields and cannot be removed; clear its key instead.",
      );
    }
    this.stored(id);
    this.options.repo.remove(id);
    this.instances.delete(id);
    this.options.keys.forget(id);
    this.publish();
  }

  /** Asks the provider's models API now and caches the list (or why there is none). */
  async refreshModels(id: string): Promise<ProviderView> {
    const provider = this.provider(id);
    const signal = AbortSignal.any([this.lifetime.signal, AbortSignal.timeout(this.options.modelsTimeoutMs ?? 10_000)]);
    const list = await provider.listModels({ signal });
    if (this.lifetime.signal.aborted) throw new HostCallError('internal', 'Patchbay is shutting down.');
    if (!this.options.repo.get(id)) return this.toView(this.stored(id)); // removed meanwhile: says so
    const note = list.source === 'api' || list.note === undefined ? undefined : forModelListing(list.note);
    this.options.repo.setModels(id, list.models, note, this.now());
    this.publish();
    return this.view(id);
  }

  /** Asks every provider whose models were never listed (at start, in the background). */
  refreshUnlisted(): void {
    for (const p of this.options.repo.list()) {
      if (!p.modelsFetchedAt) void this.refreshModels(p.id).catch(() => undefined);
    }
  }

  /** Remembers that a model refused tools. */
  markWithoutTools(id: string, model: string): void {
    const stored = this.options.repo.get(id);
    if (!stored || stored.noToolModels.includes(model)) return;
    this.options.repo.setNoToolModels(id, [...stored.noToolModels, model]);
    this.publish();
  }

  /** The Anthropic provider's key status (Settings' quick field). */
  primaryKeyStatus(): ApiKeyStatus {
    return this.view(PRIMARY_PROVIDER_ID).apiKey;
  }

  /** Opens every stored key once so a key that cannot be opened is reported at start. */
  async checkKeys(): Promise<void> {
    const before = JSON.stringify(this.views().map((v) => v.apiKey));
    for (const p of this.options.repo.list()) await this.options.keys.resolve(p.id);
    if (!this.lifetime.signal.aborted && JSON.stringify(this.views().map((v) => v.apiKey)) !== before) this.publish(PRIMARY_PROVIDER_ID);
  }

  dispose(): void {
    this.lifetime.abort();
  }

  private publish(keyChangedFor?: string): void {
    if (this.lifetime.signal.aborted) return;
    this.options.events.emit('providersChanged', this.views());
    if (keyChangedFor === PRIMARY_PROVIDER_ID) this.options.events.emit('llmStatusChanged', { apiKey: this.primaryKeyStatus() });
  }

  private toView(p: StoredProvider): ProviderView {
    const kind = this.kindOf(p);
    const endpoint = this.endpointOf(p);
    return {
      id: p.id,
      type: p.type,
      name: p.name,
      baseUrl: p.baseUrl,
      endpoint,
      apiKey: this.options.keys.status(p, kind.envKey(this.configuredUrlOf(p))),
      keyRequired: kind.keyRequired,
      models: p.models,
      ...(p.modelsFetchedAt ? { modelsFetchedAt: p.modelsFetchedAt } : {}),
      ...(p.modelsNote ? { modelsNote: p.modelsNote } : {}),
      modelsWithoutTools: p.noToolModels,
      primary: p.id === PRIMARY_PROVIDER_ID,
    };
  }

  /** Where requests go: the environment's base URL where the SDK would use it (web mode), else the configured one. */
  private endpointOf(p: StoredProvider | undefined): string {
    if (!p) return '';
    const kind = this.kindOf(p);
    const fromEnv = kind.baseUrlEnv ? this.options.envBaseUrl?.(kind.baseUrlEnv) : undefined;
    if (fromEnv && (!p.baseUrl || (kind.sdkBaseUrl !== undefined && sameUrl(p.baseUrl, kind.sdkBaseUrl)))) return fromEnv;
    return this.configuredUrlOf(p);
  }

  /** The base URL as configured in Patchbay (its type's default when empty), before the environment's. */
  private configuredUrlOf(p: StoredProvider | undefined): string {
    if (!p) return '';
    return p.baseUrl || this.kindOf(p).defaultBaseUrl;
  }

  private kindOf(p: StoredProvider): ProviderKind {
    return this.kinds[p.type];
  }

  private stored(id: string): StoredProvider {
    const p = this.options.repo.get(id);
    if (!p) throw new HostCallError('invalid_input', `No provider with id ${id}`);
    return p;
  }

  private now(): Date {
    return this.options.clock.now();
  }
}

/** Two base URLs that differ only in case or a trailing slash. */
function sameUrl(a: string, b: string): boolean {
  const norm = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase();
  return norm(a) === norm(b);
}
