import { useState, type FormEvent } from 'react';
import type { LogSettings } from '@contract';
import { Field } from '../../ui/Field';
import { issuesOf, messageOf } from '../../ui/call-errors';

export interface RetentionSettingsProps {
  settings: LogSettings;
  onSave(patch: Partial<LogSettings>): Promise<unknown>;
}

const FIELDS: { key: keyof LogSettings; label: string; hint: string }[] = [
  {
    key: 'maxEntriesPerStream',
    label: 'Entries kept per stream',
    hint: 'Per server and stream (Output, Messages, Protocol, Host); the oldest go first.',
  },
  { key: 'maxTotalMB', label: 'Total size (MB)', hint: 'All servers together.' },
  { key: 'maxAgeDays', label: 'Days kept', hint: 'Older entries are deleted.' },
];

/** How much log history the host keeps on disk. */
export function RetentionSettings({ settings, onSave }: RetentionSettingsProps) {
  const [draft, setDraft] = useState<Record<keyof LogSettings, string>>(() => ({
    maxEntriesPerStream: String(settings.maxEntriesPerStream),
    maxTotalMB: String(settings.maxTotalMB),
    maxAgeDays: String(settings.maxAgeDays),
  }));
  const [state, setState] = useState<{ saving: boolean; note?: string; errors: Partial<Record<string, string>> }>({
    saving: false,
    errors: {},
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ saving: true, errors: {} });
    try {
      await onSave(Object.fromEntries(FIELDS.map(({ key }) => [key, Number(draft[key])])));
      setState({ saving: false, note: 'Saved', errors: {} });
    } catch (error) {
      const errors = Object.fromEntries(issuesOf(error).map((issue) => [String(issue.path[0]), issue.message]));
      setState({ saving: false, note: `Not saved: ${messageOf(error)}`, errors });
    }
  };

  return (
    <form className="form log-retention" aria-label="Log retention" onSubmit={(e) => void submit(e)} noValidate>
      {FIELDS.map(({ key, label, hint }) => (
        <Field key={key} label={label} hint={hint} error={state.errors[key]}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              inputMode="numeric"
              value={draft[key]}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          )}
        </Field>
      ))}
      <div className="actions">
        <button type="submit" disabled={state.saving}>
          Save
        </button>
        {state.note && (
          <span role="status" className="muted">
            {state.note}
          </span>
        )}
      </div>
    </form>
  );
}
