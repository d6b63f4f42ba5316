import type { ReactNode } from 'react';
import type { EnvVarView } from '@contract';
import { Field } from '../../ui/Field';
import { isKeptSecret, isSecret, pairLines, type PairsDraft, type PairSyntax } from './key-value-lines';

export interface KeyValueFieldProps {
  /** "Environment" or "Headers". */
  label: string;
  hint: ReactNode;
  /** The longer explanation, behind a "?" beside the label. */
  help?: ReactNode;
  placeholder: string;
  syntax: PairSyntax;
  draft: PairsDraft;
  /** The stored pairs of the server being edited (secrets without values); [] when adding. */
  stored: readonly EnvVarView[];
  error?: string;
  onChange(draft: PairsDraft): void;
}

/**
 * Key/value pairs (environment variables, HTTP headers) as one line each in a single labelled
 * textbox, quick to type and paste, with a Secret checkbox per detected key beneath it. A stored
 * secret shows as the placeholder; left untouched it is sent without a value and the host keeps it.
 */
export function KeyValueField({ label, hint, help, placeholder, syntax, draft, stored, error, onChange }: KeyValueFieldProps) {
  const keys = new Map<string, boolean>();
  for (const line of pairLines(draft.text, syntax)) {
    if (line.key !== '' && !keys.has(line.key)) keys.set(line.key, isKeptSecret(line, stored));
  }
  return (
    <>
      <Field label={label} error={error} hint={hint} help={help}>
        {(control) => (
          <textarea
            {...control}
            rows={4}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder={placeholder}
            value={draft.text}
            onChange={(e) => onChange({ ...draft, text: e.target.value })}
          />
        )}
      </Field>
      {keys.size > 0 && (
        <fieldset className="env-secrets">
          <legend>Secret values</legend>
          <p className="hint">Secret values are stored encrypted and never shown again.</p>
          {[...keys].map(([key, kept]) => (
            <label key={key} className="inline" title={kept ? 'Type a new value to change this stored secret' : undefined}>
              <input
                type="checkbox"
                checked={kept || isSecret(key, draft, stored, syntax)}
                disabled={kept}
                onChange={(e) => onChange({ ...draft, secretChoices: { ...draft.secretChoices, [key]: e.target.checked } })}
              />
              <code>{key}</code>
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
}
