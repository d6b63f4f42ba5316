import { useState } from 'react';
import { PROVIDER_TYPE_LABELS, type HostApi, type ProviderView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { RelativeTime } from '../../ui/RelativeTime';
import { ProviderFormDialog, type ProviderFormInput } from './ProviderFormDialog';
import './providers.css';
import { Plus } from 'lucide-react';
import { Icon } from '../../ui/Icon';
import { Alert } from '../../ui/Alert';

/**
 * Settings › Providers: every configured provider with its endpoint, key state and model list;
 * Add provider, Edit, Refresh models, Remove (the Anthropic provider stays: Settings' quick fields are its).
 */
export function ProvidersSettings() {
  const providers = useAppStore((s) => s.providers);
  const api = useAppStore((s) => s.api);
  const [editing, setEditing] = useState<ProviderView | 'new' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const save = async (input: ProviderFormInput) => {
    if (editing === 'new' || editing === null) await api.addProvider(input);
    else
      await api.updateProvider({
        id: editing.id,
        name: input.name,
        baseUrl: input.baseUrl,
        ...(input.apiKey ? { apiKey: input.apiKey } : {}),
        ...(input.clearApiKey ? { clearApiKey: true } : {}),
      });
  };

  return (
    <section className="card providers-settings" aria-labelledby="providers-title">
      <h2 id="providers-title">Providers</h2>
      <p className="muted">
        Where chat turns and sampling requests go: Anthropic’s API, or any OpenAI-compatible endpoint — OpenAI, OpenRouter, or a model on
        this computer (Ollama, LM Studio, llama.cpp, vLLM). Each conversation picks its model in the chat header.
      </p>
      <ul aria-label="Providers" className="provider-list">
        {providers.map((provider) => (
          <ProviderItem key={provider.id} provider={provider} api={api} onEdit={() => setEditing(provider)} onFailure={setFailure} />
        ))}
      </ul>
      <Alert message={failure} tone="field-error" />
      <div className="actions">
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          <Icon icon={Plus} />
          Add provider
        </button>
      </div>
      {editing !== null && (
        <ProviderFormDialog
          open
          provider={editing === 'new' ? undefined : editing}
          onOpenChange={(open) => !open && setEditing(null)}
          onSubmit={save}
          detect={() => api.detectLocalProviders()}
        />
      )}
    </section>
  );
}

function keyText(provider: ProviderView): string {
  if (provider.apiKey.state === 'set') return provider.apiKey.source === 'environment' ? 'API key from the environment' : 'API key set';
  return provider.keyRequired ? 'No API key (needed)' : 'No API key';
}

function ProviderItem({
  provider,
  api,
  onEdit,
  onFailure,
}: {
  provider: ProviderView;
  api: HostApi;
  onEdit(): void;
  onFailure(message: string | null): void;
}) {
  const [refreshing, setRefreshing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    onFailure(null);
    try {
      await fn();
    } catch (error) {
      onFailure(`${provider.name}: ${messageOf(error)}`);
    }
  };
  const refresh = async () => {
    setRefreshing(true);
    await run(() => api.refreshProviderModels({ id: provider.id }));
    setRefreshing(false);
  };
  return (
    <li aria-label={provider.name} className="provider-item">
      <div className="provider-head">
        <strong>{provider.name}</strong> <span className="muted">{PROVIDER_TYPE_LABELS[provider.type]}</span>
        <code className="provider-endpoint">{provider.endpoint}</code>
      </div>
      <p className="provider-facts">
        <span data-testid="provider-key">{keyText(provider)}</span> ·{' '}
        <span role="status" aria-live="polite">
          {refreshing ? (
            'Listing models…'
          ) : provider.models.length > 0 && provider.modelsNote ? (
            `${provider.models.length} built-in ${provider.models.length === 1 ? 'model' : 'models'} (not listed by the endpoint)`
          ) : provider.models.length > 0 ? (
            <>
              {provider.models.length} {provider.models.length === 1 ? 'model' : 'models'}
              {provider.modelsFetchedAt && (
                <>
                  , listed <RelativeTime iso={provider.modelsFetchedAt} />
                </>
              )}
            </>
          ) : provider.modelsFetchedAt ? (
            'No models listed'
          ) : (
            'Models not listed yet'
          )}
        </span>
        {provider.modelsNote && <span className="provider-note"> — {provider.modelsNote}</span>}
      </p>
      {provider.modelsWithoutTools.length > 0 && (
        <p className="provider-facts">
          Offered no tools (they refused them): {provider.modelsWithoutTools.join(', ')}{' '}
          <button
            type="button"
            className="link"
            onClick={() => void run(() => api.updateProvider({ id: provider.id, offerToolsAgain: true }))}
          >
            Offer tools again
          </button>
        </p>
      )}
      <div className="actions">
        <button type="button" className="button secondary" onClick={() => void refresh()} disabled={refreshing}>
          Refresh models
        </button>
        <button type="button" className="button secondary" onClick={onEdit}>
          Edit
        </button>
        {!provider.primary &&
          (confirming ? (
            <>
              <button type="button" className="button danger" onClick={() => void run(() => api.removeProvider({ id: provider.id }))}>
                Remove {provider.name}
              </button>
              <button type="button" className="button secondary" onClick={() => setConfirming(false)}>
                Keep
              </button>
              <span className="muted">Conversations using it go back to the default model.</span>
            </>
          ) : (
            <button type="button" className="button secondary" onClick={() => setConfirming(true)}>
              Remove
            </button>
          ))}
      </div>
    </li>
  );
}
