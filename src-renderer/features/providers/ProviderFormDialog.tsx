import { useEffect, useId, useState } from 'react';
import {
  PROVIDER_PRESETS,
  PROVIDER_TYPE_LABELS,
  PROVIDER_TYPES,
  type PresetDetection,
  type ProviderPreset,
  type ProviderType,
  type ProviderView,
} from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { FormFooter } from '../../ui/FormFooter';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';

/** What the form sends: a new provider, or a change to one (the key only when typed; never shown). */
export interface ProviderFormInput {
  type: ProviderType;
  name: string;
  baseUrl: string;
  apiKey?: string;
  clearApiKey?: boolean;
}

export interface ProviderFormDialogProps {
  open: boolean;
  /** The provider to edit; absent to add one. */
  provider?: ProviderView;
  onOpenChange(open: boolean): void;
  /** Resolves once the host saved; rejects with its error (field issues in `data`). */
  onSubmit(input: ProviderFormInput): Promise<unknown>;
  /** Asks the host which local presets answer on their ports (only when adding). */
  detect?(): Promise<PresetDetection[]>;
}

type Errors = Partial<Record<'name' | 'baseUrl' | 'apiKey' | 'form', string>>;

const BASE_URL_PLACEHOLDER: Record<ProviderType, string> = {
  anthropic: 'https://api.anthropic.com (default)',
  'openai-compatible': 'http://127.0.0.1:11434/v1',
};

/**
 * Add or edit a provider: Type, Name, Base URL, API key; presets fill the first three (a local one
 * says whether it answers on its port). Closes only after the host saved; on failure the draft stays.
 */
export function ProviderFormDialog({ open, provider, onOpenChange, onSubmit, detect }: ProviderFormDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}
      title={provider ? `Edit ${provider.name}` : 'Add provider'}
      description="Where chat turns and sampling requests can go. The key is sent to Patchbay's host once and never shown again."
    >
      <ProviderForm
        provider={provider}
        busy={busy}
        onBusyChange={setBusy}
        onSubmit={onSubmit}
        detect={detect}
        onClose={() => onOpenChange(false)}
      />
    </Modal>
  );
}

interface ProviderFormProps extends Pick<ProviderFormDialogProps, 'provider' | 'onSubmit' | 'detect'> {
  busy: boolean;
  onBusyChange(busy: boolean): void;
  onClose(): void;
}

function ProviderForm({ provider, busy, onBusyChange, onSubmit, detect, onClose }: ProviderFormProps) {
  const typeId = useId();
  const [type, setType] = useState<ProviderType>(provider?.type ?? 'openai-compatible');
  const [name, setName] = useState(provider?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(provider?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [detected, setDetected] = useState<PresetDetection[] | null>(null);

  useEffect(() => {
    if (provider || !detect) return;
    let live = true;
    detect().then(
      (found) => live && setDetected(found),
      () => live && setDetected([]),
    );
    return () => {
      live = false;
    };
  }, [provider, detect]);

  const applyPreset = (preset: ProviderPreset) => {
    setType(preset.type);
    setName(preset.name);
    setBaseUrl(preset.baseUrl);
    setErrors({});
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    onBusyChange(true);
    setErrors({});
    try {
      await onSubmit({
        type,
        name: name.trim(),
        baseUrl: baseUrl.trim(),
        ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        ...(clearKey && !apiKey.trim() ? { clearApiKey: true } : {}),
      });
      onClose();
    } catch (error) {
      const next: Errors = {};
      for (const issue of issuesOf(error)) {
        const field = issue.path[0];
        if (field === 'name' || field === 'baseUrl' || field === 'apiKey') next[field] = issue.message;
      }
      next.form = `Not saved: ${Object.keys(next).length > 0 ? 'check the highlighted fields.' : messageOf(error)}`;
      setErrors(next);
    } finally {
      onBusyChange(false);
    }
  };

  const keyStored = provider?.apiKey.state === 'set' && provider.apiKey.source === 'stored';
  return (
    <form className="form provider-form" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      {!provider && (
        <div role="group" aria-label="Presets" className="provider-presets">
          <span className="muted">Presets:</span>
          {PROVIDER_PRESETS.map((preset) => {
            const found = detected?.find((d) => d.presetId === preset.id);
            const state = !preset.local ? undefined : detected === null ? 'checking…' : found?.running ? 'running' : 'not detected';
            return (
              <span key={preset.id} className="preset">
                <button
                  type="button"
                  className={`button secondary${found?.running ? ' preset-running' : ''}`}
                  onClick={() => applyPreset(preset)}
                  aria-describedby={state ? `${typeId}-${preset.id}` : undefined}
                >
                  {preset.name}
                </button>
                {state && (
                  <span id={`${typeId}-${preset.id}`} className="preset-state muted">
                    {state}
                    {found?.running && found.models !== undefined ? ` (${found.models} models)` : ''}
                  </span>
                )}
              </span>
            );
          })}
        </div>
      )}
      <div className="field">
        <label htmlFor={typeId}>Type</label>
        <Select
          id={typeId}
          value={type}
          disabled={busy || provider !== undefined}
          onChange={(next) => setType(next as ProviderType)}
          options={PROVIDER_TYPES.map((t) => ({ value: t, label: PROVIDER_TYPE_LABELS[t] }))}
        />
      </div>
      <Field label="Name" error={errors.name} hint="How the Model menu names it.">
        {(control) => <input {...control} data-autofocus value={name} disabled={busy} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field
        label="Base URL"
        error={errors.baseUrl}
        hint={
          type === 'anthropic'
            ? 'Empty for Anthropic’s API; set it for a gateway.'
            : 'The endpoint’s OpenAI-compatible API, usually ending in /v1.'
        }
      >
        {(control) => (
          <input
            {...control}
            type="url"
            placeholder={BASE_URL_PLACEHOLDER[type]}
            value={baseUrl}
            disabled={busy}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="API key"
        error={errors.apiKey}
        hint={
          <>
            {provider ? (keyStored ? 'Set. Enter a new key to replace it.' : 'Not set.') : ''}{' '}
            {type === 'openai-compatible' ? 'Optional: local servers need none.' : 'Required for Anthropic’s API.'}{' '}
            {provider?.apiKey.storage}
          </>
        }
      >
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiKey}
            disabled={busy}
            onChange={(e) => setApiKey(e.target.value)}
          />
        )}
      </Field>
      {keyStored && (
        <label className="inline">
          <input type="checkbox" checked={clearKey} disabled={busy} onChange={(e) => setClearKey(e.target.checked)} /> Remove the stored key
        </label>
      )}
      <FormFooter error={errors.form} busy={busy} onCancel={onClose} />
    </form>
  );
}
