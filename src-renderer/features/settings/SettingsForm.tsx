import { useId, useState } from 'react';
import { THEMES, type ApiKeyStatus, type ModelInfo, type Settings, type SettingsPatch, type Theme } from '../../../src-preload/contract';
import { ApiKeyField, ModelChoices } from '../chat/ApiKeyField';

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };
type FieldErrors = Partial<Record<keyof Settings | 'apiKey', string>>;

export interface SettingsFormProps {
  settings: Settings;
  /** Resolves once the host committed the change; rejects with the host's error. */
  onSave(patch: SettingsPatch): Promise<unknown>;
  /** Chat: whether an API key is set (the key itself never comes back); the field shows when `onSetApiKey` is given. */
  apiKey?: ApiKeyStatus | null;
  /** Sends a newly entered key once, after the settings were saved. */
  onSetApiKey?(apiKey: string): Promise<unknown>;
  onClearApiKey?(): Promise<unknown>;
  /** Models to offer as one-click choices for the Model field. */
  models?: ModelInfo[];
}

const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** A number field's value: empty while the user has cleared it (the host then says what is wrong). */
const numberValue = (n: number) => (Number.isNaN(n) ? '' : n);

/**
 * The settings form. "Saved" appears only after the host answered, i.e. after the SQLite commit; a
 * rejected value is shown next to its field and the draft is kept, so nothing typed is lost.
 */
export function SettingsForm({ settings, onSave, apiKey = null, onSetApiKey, onClearApiKey, models = [] }: SettingsFormProps) {
  // Unsaved edits; null while the form simply shows the host's settings (and follows their changes).
  const [edits, setEdits] = useState<Settings | null>(null);
  const draft = edits ?? settings;
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const ids = { baseUrl: useId(), model: useId(), theme: useId(), apiKey: useId(), maxTokens: useId(), system: useId(), rounds: useId(), resultChars: useId(), cimd: useId() };
  // A key being entered: sent once on Save, then cleared; never filled from the host.
  const [keyDraft, setKeyDraft] = useState('');
  const [clearingKey, setClearingKey] = useState(false);

  const edit = <K extends keyof Settings>(key: K, value: Settings[K]) => {
    setEdits({ ...draft, [key]: value });
    setSave({ kind: 'idle' });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSave({ kind: 'saving' });
    try {
      await onSave({
        theme: draft.theme,
        anthropicBaseUrl: draft.anthropicBaseUrl.trim(),
        defaultModel: draft.defaultModel.trim(),
        maxTokens: draft.maxTokens,
        systemPrompt: draft.systemPrompt,
        maxToolRounds: draft.maxToolRounds,
        toolResultMaxChars: draft.toolResultMaxChars,
        oauthClientMetadataUrl: draft.oauthClientMetadataUrl.trim(),
      });
      if (keyDraft.trim() && onSetApiKey) {
        await onSetApiKey(keyDraft.trim());
        setKeyDraft('');
      }
      setEdits(null);
      setSave({ kind: 'saved' });
    } catch (error) {
      const issues = (error as { data?: { path: string[]; message: string }[] }).data ?? [];
      const fieldErrors: FieldErrors = {};
      for (const issue of issues) fieldErrors[issue.path[0] as keyof Settings] = issue.message;
      setErrors(fieldErrors);
      setSave({ kind: 'failed', message: (error as Error).message });
    }
  };

  return (
    <form className="card form" onSubmit={submit} aria-labelledby="settings-form-title" noValidate>
      <h2 id="settings-form-title">Preferences</h2>
      <fieldset>
        <legend id={ids.theme}>Theme</legend>
        {THEMES.map((theme) => (
          <label key={theme} className="inline">
            <input type="radio" name="theme" value={theme} checked={draft.theme === theme} onChange={() => edit('theme', theme)} />
            {THEME_LABELS[theme]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={ids.baseUrl}>Anthropic base URL</label>
      <input
        id={ids.baseUrl}
        type="url"
        placeholder="https://api.anthropic.com (default)"
        value={draft.anthropicBaseUrl}
        aria-invalid={errors.anthropicBaseUrl ? true : undefined}
        aria-describedby={`${ids.baseUrl}-hint`}
        onChange={(e) => edit('anthropicBaseUrl', e.target.value)}
      />
      <p id={`${ids.baseUrl}-hint`} className={errors.anthropicBaseUrl ? 'field-error' : 'hint'}>
        {errors.anthropicBaseUrl ?? 'Leave empty for Anthropic’s API; set it for a gateway or proxy.'}
      </p>
      <label htmlFor={ids.model}>Model</label>
      <input
        id={ids.model}
        value={draft.defaultModel}
        aria-invalid={errors.defaultModel ? true : undefined}
        aria-describedby={`${ids.model}-hint`}
        onChange={(e) => edit('defaultModel', e.target.value)}
      />
      <p id={`${ids.model}-hint`} className={errors.defaultModel ? 'field-error' : 'hint'}>
        {errors.defaultModel ?? 'The default model for new conversations.'}
      </p>
      <ModelChoices models={models} onPick={(id) => edit('defaultModel', id)} />
      {onSetApiKey && (
        <ApiKeyField
          id={ids.apiKey}
          status={apiKey}
          value={keyDraft}
          onChange={(value) => {
            setKeyDraft(value);
            setErrors((e) => ({ ...e, apiKey: undefined }));
          }}
          error={errors.apiKey}
          clearing={clearingKey}
          onClear={() => {
            setClearingKey(true);
            void onClearApiKey?.().finally(() => setClearingKey(false));
          }}
        />
      )}
      <fieldset className="settings-chat">
        <legend>Chat</legend>
        <label htmlFor={ids.maxTokens}>Max tokens</label>
        <input id={ids.maxTokens} type="number" min={1} value={numberValue(draft.maxTokens)} aria-invalid={errors.maxTokens ? true : undefined} aria-describedby={`${ids.maxTokens}-hint`} onChange={(e) => edit('maxTokens', e.target.valueAsNumber)} />
        <p id={`${ids.maxTokens}-hint`} className={errors.maxTokens ? 'field-error' : 'hint'}>
          {errors.maxTokens ?? 'The most tokens one answer may use.'}
        </p>
        <label htmlFor={ids.system}>System prompt</label>
        <textarea id={ids.system} rows={3} value={draft.systemPrompt} aria-invalid={errors.systemPrompt ? true : undefined} aria-describedby={`${ids.system}-hint`} onChange={(e) => edit('systemPrompt', e.target.value)} />
        <p id={`${ids.system}-hint`} className={errors.systemPrompt ? 'field-error' : 'hint'}>
          {errors.systemPrompt ?? 'Instructions sent with every chat request; empty for none.'}
        </p>
        <label htmlFor={ids.rounds}>Tool rounds per turn</label>
        <input id={ids.rounds} type="number" min={1} value={numberValue(draft.maxToolRounds)} aria-invalid={errors.maxToolRounds ? true : undefined} aria-describedby={`${ids.rounds}-hint`} onChange={(e) => edit('maxToolRounds', e.target.valueAsNumber)} />
        <p id={`${ids.rounds}-hint`} className={errors.maxToolRounds ? 'field-error' : 'hint'}>
          {errors.maxToolRounds ?? 'A turn stops, and says so, after this many model requests.'}
        </p>
        <label htmlFor={ids.resultChars}>Tool result limit (characters)</label>
        <input id={ids.resultChars} type="number" min={1000} value={numberValue(draft.toolResultMaxChars)} aria-invalid={errors.toolResultMaxChars ? true : undefined} aria-describedby={`${ids.resultChars}-hint`} onChange={(e) => edit('toolResultMaxChars', e.target.valueAsNumber)} />
        <p id={`${ids.resultChars}-hint`} className={errors.toolResultMaxChars ? 'field-error' : 'hint'}>
          {errors.toolResultMaxChars ?? 'Longer results are cut for the model, with a note; you always see them whole.'}
        </p>
      </fieldset>
      <fieldset className="settings-remote">
        <legend>Remote servers</legend>
        <label htmlFor={ids.cimd}>OAuth client metadata URL</label>
        <input
          id={ids.cimd}
          type="url"
          placeholder="https://example.com/patchbay/client-metadata.json (optional)"
          value={draft.oauthClientMetadataUrl}
          aria-invalid={errors.oauthClientMetadataUrl ? true : undefined}
          aria-describedby={`${ids.cimd}-hint`}
          onChange={(e) => edit('oauthClientMetadataUrl', e.target.value)}
        />
        <p id={`${ids.cimd}-hint`} className={errors.oauthClientMetadataUrl ? 'field-error' : 'hint'}>
          {errors.oauthClientMetadataUrl ??
            'Where your organisation hosts Patchbay’s OAuth client metadata document; used as the client ID by authorization servers that support it. Empty: Patchbay registers itself with each authorization server.'}
        </p>
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={save.kind === 'saving'}>
          Save
        </button>
        <span role="status" aria-live="polite" className="save-state">
          {save.kind === 'saving' && 'Saving…'}
          {save.kind === 'saved' && 'Saved'}
          {save.kind === 'failed' && `Not saved: ${save.message}`}
        </span>
      </div>
    </form>
  );
}
