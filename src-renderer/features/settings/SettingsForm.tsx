import { useId, useState } from 'react';
import {
  PRIMARY_PROVIDER_ID,
  THEMES,
  TOOL_SEARCH_MODES,
  FLAGGED_CONTENT_LABELS,
  FLAGGED_CONTENT_MODES,
  type FlaggedContentMode,
  type ApiKeyStatus,
  type ProviderView,
  type Settings,
  type SettingsPatch,
  type Theme,
  type ToolSearchMode,
} from '@contract';
import { Field } from '../../ui/Field';
import { ApiKeyField, ModelChoices } from '../chat/ApiKeyField';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { ModelListingNote } from '../providers/ModelListingNote';

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };
/** The settings that are preferences: they apply (and are saved) the moment they change, without Save. */
type Preference = 'theme' | 'updatesEnabled' | 'toolSearch' | 'flaggedContent';
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
  /** The configured providers: the default model's provider is one of them, its models one-click choices. */
  providers?: ProviderView[];
  /** False in web mode: the updater is part of the desktop app, so its settings show as not applicable. */
  updatesApplicable?: boolean;
}

const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const TOOL_SEARCH_LABELS: Record<ToolSearchMode, string> = { automatic: 'Automatic', always: 'Always', off: 'Off' };

/** A number field's value: empty while the user has cleared it (the host then says what is wrong). */
const numberValue = (n: number) => (Number.isNaN(n) ? '' : n);

/**
 * The settings form. "Saved" appears only after the host answered, i.e. after the SQLite commit; a
 * rejected value is shown next to its field and the draft is kept, so nothing typed is lost.
 */
export function SettingsForm({
  settings,
  onSave,
  apiKey = null,
  onSetApiKey,
  onClearApiKey,
  providers = [],
  updatesApplicable = true,
}: SettingsFormProps) {
  // Unsaved edits; null while the form simply shows the host's settings (and follows their changes).
  const [edits, setEdits] = useState<Settings | null>(null);
  // A preference being saved on its own: shown as chosen while the host commits it.
  const [applying, setApplying] = useState<Partial<Pick<Settings, Preference>>>({});
  const draft = { ...(edits ?? settings), ...applying };
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const ids = { theme: useId(), apiKey: useId(), provider: useId() };
  const defaultProvider = providers.find((p) => p.id === draft.defaultProviderId) ?? providers.find((p) => p.id === PRIMARY_PROVIDER_ID);
  // A key being entered: sent once on Save, then cleared; never filled from the host.
  const [keyDraft, setKeyDraft] = useState('');
  const [clearingKey, setClearingKey] = useState(false);

  const edit = <K extends keyof Settings>(key: K, value: Settings[K]) => {
    setEdits({ ...draft, [key]: value });
    setSave({ kind: 'idle' });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  /** A preference applies at once: saved by itself (whatever else is being edited), "Saved" after the commit. */
  const apply = async <K extends Preference>(key: K, value: Settings[K]) => {
    setApplying((a) => ({ ...a, [key]: value }));
    setEdits((e) => e && { ...e, [key]: value });
    setSave({ kind: 'saving' });
    try {
      await onSave({ [key]: value });
      setSave({ kind: 'saved' });
    } catch (error) {
      setEdits((e) => e && { ...e, [key]: settings[key] });
      setSave({ kind: 'failed', message: (error as Error).message });
    } finally {
      setApplying(({ [key]: _done, ...rest }) => rest);
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSave({ kind: 'saving' });
    try {
      await onSave({
        theme: draft.theme,
        anthropicBaseUrl: draft.anthropicBaseUrl.trim(),
        defaultModel: draft.defaultModel.trim(),
        defaultProviderId: draft.defaultProviderId,
        maxTokens: draft.maxTokens,
        systemPrompt: draft.systemPrompt,
        maxToolRounds: draft.maxToolRounds,
        toolResultMaxChars: draft.toolResultMaxChars,
        attachmentBudgetChars: draft.attachmentBudgetChars,
        oauthClientMetadataUrl: draft.oauthClientMetadataUrl.trim(),
        updatesEnabled: draft.updatesEnabled,
        updateFeed: draft.updateFeed.trim(),
        registryUrl: draft.registryUrl.trim(),
        toolSearch: draft.toolSearch,
        flaggedContent: draft.flaggedContent,
        maxAnswerChars: draft.maxAnswerChars,
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
        <p className="hint">Applies at once.</p>
        {THEMES.map((theme) => (
          <label key={theme} className="inline">
            <input type="radio" name="theme" value={theme} checked={draft.theme === theme} onChange={() => void apply('theme', theme)} />
            {THEME_LABELS[theme]}
          </label>
        ))}
      </fieldset>
      <Field
        label="Anthropic base URL"
        error={errors.anthropicBaseUrl}
        hint="Leave empty for Anthropic’s API; set it for a gateway or proxy."
      >
        {(control) => (
          <input
            {...control}
            type="url"
            placeholder="https://api.anthropic.com (default)"
            value={draft.anthropicBaseUrl}
            onChange={(e) => edit('anthropicBaseUrl', e.target.value)}
          />
        )}
      </Field>
      {providers.length > 1 && (
        <div className="field">
          <label htmlFor={ids.provider}>Default provider</label>
          <Select
            id={ids.provider}
            value={defaultProvider?.id ?? draft.defaultProviderId}
            onChange={(next) => edit('defaultProviderId', next)}
            options={providers.map((p) => ({ value: p.id, label: p.name }))}
          />
        </div>
      )}
      <Field
        label="Model"
        error={errors.defaultModel}
        hint={`For new conversations and sampling${defaultProvider ? `, of ${defaultProvider.name}` : ''}.`}
        help="Each conversation can pick another model in the chat header."
      >
        {(control) => <input {...control} value={draft.defaultModel} onChange={(e) => edit('defaultModel', e.target.value)} />}
      </Field>
      {/* Checked once saved: not while it is being typed. */}
      {draft.defaultModel === settings.defaultModel && draft.defaultProviderId === settings.defaultProviderId && (
        <ModelListingNote provider={defaultProvider} model={settings.defaultModel} onPick={(id) => edit('defaultModel', id)} />
      )}
      <ModelChoices models={defaultProvider?.models ?? []} onPick={(id) => edit('defaultModel', id)} />
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
      <fieldset className="settings-group settings-chat">
        <legend>Chat</legend>
        <Field label="Max tokens" error={errors.maxTokens} hint="The most tokens one answer may use.">
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              value={numberValue(draft.maxTokens)}
              onChange={(e) => edit('maxTokens', e.target.valueAsNumber)}
            />
          )}
        </Field>
        <Field label="System prompt" error={errors.systemPrompt} hint="Instructions sent with every chat request; empty for none.">
          {(control) => (
            <textarea {...control} rows={3} value={draft.systemPrompt} onChange={(e) => edit('systemPrompt', e.target.value)} />
          )}
        </Field>
        <Field label="Tool rounds per turn" error={errors.maxToolRounds} hint="A turn stops, and says so, after this many model requests.">
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              value={numberValue(draft.maxToolRounds)}
              onChange={(e) => edit('maxToolRounds', e.target.valueAsNumber)}
            />
          )}
        </Field>
        <Field
          label="Tool search"
          hint="With many tools, the model searches for the ones it needs."
          help="With many tools the model gets the pinned ones and a search tool, and finds the rest as it needs them. Automatic: past 40 tools, a tenth of the model's context or the provider's limit. Off: every offered tool goes with each request."
        >
          {(control) => (
            <Select
              {...control}
              value={draft.toolSearch}
              onChange={(next) => void apply('toolSearch', next as ToolSearchMode)}
              options={TOOL_SEARCH_MODES.map((mode) => ({ value: mode, label: TOOL_SEARCH_LABELS[mode] }))}
            />
          )}
        </Field>
        <Field
          label="Flagged content"
          hint="What happens when a tool result holds text aimed at the model, hidden characters, a way out for data or a key."
          help="Patchbay scans every tool result before the model sees it. Ask: the turn waits while you decide. Warn only: the card shows the flag and the model is told to treat it as data. Block: the model gets a note instead of the result; you still see it."
        >
          {(control) => (
            <Select
              {...control}
              value={draft.flaggedContent}
              onChange={(next) => void apply('flaggedContent', next as FlaggedContentMode)}
              options={FLAGGED_CONTENT_MODES.map((mode) => ({ value: mode, label: FLAGGED_CONTENT_LABELS[mode] }))}
            />
          )}
        </Field>
        <Field
          label="Tool result limit (characters)"
          error={errors.toolResultMaxChars}
          hint="Longer results are cut for the model, with a note; you always see them whole."
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1000}
              value={numberValue(draft.toolResultMaxChars)}
              onChange={(e) => edit('toolResultMaxChars', e.target.valueAsNumber)}
            />
          )}
        </Field>
        <Field
          label="Attachment budget (characters)"
          error={errors.attachmentBudgetChars}
          hint="Text that attachments and a prompt may add to one message."
          help="How much text attached resources and a chosen prompt may add to one message; the message box shows what is used."
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1000}
              value={numberValue(draft.attachmentBudgetChars)}
              onChange={(e) => edit('attachmentBudgetChars', e.target.valueAsNumber)}
            />
          )}
        </Field>
        <Field
          label="Answer limit (characters)"
          error={errors.maxAnswerChars}
          hint="A model answer longer than this stops being read, and the chat says so; what came is kept."
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={10000}
              value={numberValue(draft.maxAnswerChars)}
              onChange={(e) => edit('maxAnswerChars', e.target.valueAsNumber)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Remote servers</legend>
        <Field
          label="OAuth client metadata URL"
          error={errors.oauthClientMetadataUrl}
          hint="Empty: Patchbay registers itself with each authorization server."
          help="Where your organisation hosts Patchbay’s OAuth client metadata document; used as the client ID by authorization servers that support it."
        >
          {(control) => (
            <input
              {...control}
              type="url"
              placeholder="https://example.com/patchbay/client-metadata.json (optional)"
              value={draft.oauthClientMetadataUrl}
              onChange={(e) => edit('oauthClientMetadataUrl', e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Finding servers</legend>
        <Field
          label="Registry URL"
          error={errors.registryUrl}
          hint="The MCP registry Find servers searches."
          help="A registry serving the /v0.1/servers API. Your organisation may run its own."
        >
          {(control) => (
            <input
              {...control}
              type="url"
              placeholder="https://registry.modelcontextprotocol.io"
              value={draft.registryUrl}
              onChange={(e) => edit('registryUrl', e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset className="settings-group" disabled={!updatesApplicable}>
        <legend>Updates</legend>
        {!updatesApplicable && <p className="hint">Not applicable in web mode: updates are part of the desktop app.</p>}
        <Switch checked={draft.updatesEnabled} disabled={!updatesApplicable} onChange={(on) => void apply('updatesEnabled', on)}>
          Check for updates
        </Switch>
        <p className="hint">Checks daily; installs only when you say so.</p>
        <Field
          label="Update feed"
          error={errors.updateFeed}
          hint="Empty: the feed this build came with."
          help="owner/repo for a GitHub repository’s releases, or an https URL for a generic feed."
        >
          {(control) => (
            <input
              {...control}
              placeholder="owner/repo or https://… (optional)"
              value={draft.updateFeed}
              onChange={(e) => edit('updateFeed', e.target.value)}
            />
          )}
        </Field>
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
