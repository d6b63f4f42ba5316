import { useId, useState } from 'react';
import { THEMES, type Settings, type SettingsPatch, type Theme } from '../../../src-preload/contract';

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };
type FieldErrors = Partial<Record<keyof Settings, string>>;

export interface SettingsFormProps {
  settings: Settings;
  /** Resolves once the host committed the change; rejects with the host's error. */
  onSave(patch: SettingsPatch): Promise<unknown>;
}

const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/**
 * The settings form. "Saved" appears only after the host answered, i.e. after the SQLite commit; a
 * rejected value is shown next to its field and the draft is kept, so nothing typed is lost.
 */
export function SettingsForm({ settings, onSave }: SettingsFormProps) {
  // Unsaved edits; null while the form simply shows the host's settings (and follows their changes).
  const [edits, setEdits] = useState<Settings | null>(null);
  const draft = edits ?? settings;
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const ids = { baseUrl: useId(), model: useId(), theme: useId() };

  const edit = <K extends keyof Settings>(key: K, value: Settings[K]) => {
    setEdits({ ...draft, [key]: value });
    setSave({ kind: 'idle' });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSave({ kind: 'saving' });
    try {
      await onSave({ theme: draft.theme, anthropicBaseUrl: draft.anthropicBaseUrl.trim(), defaultModel: draft.defaultModel.trim() });
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
