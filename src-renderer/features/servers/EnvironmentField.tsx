import type { ServerConfigView } from '../../../src-preload/contract';
import { Field } from '../../ui/Field';
import { envLines, isKeptSecret, isSecret, SECRET_PLACEHOLDER, type ServerDraft } from './server-form-model';

export interface EnvironmentFieldProps {
  draft: ServerDraft;
  /** The stored variables of the server being edited (secrets without values); [] when adding. */
  stored: ServerConfigView['env'];
  error?: string;
  onTextChange(text: string): void;
  onSecretChange(key: string, secret: boolean): void;
}

/**
 * The environment as `KEY=value` lines (one textbox named "Environment", quick to type and paste),
 * with a Secret checkbox per detected key beneath it. A stored secret shows as `KEY=••••••`; left
 * untouched it is sent without a value and the host keeps what it has.
 */
export function EnvironmentField({ draft, stored, error, onTextChange, onSecretChange }: EnvironmentFieldProps) {
  const keys = new Map<string, boolean>();
  for (const line of envLines(draft.env)) {
    if (line.key !== '' && !keys.has(line.key)) keys.set(line.key, isKeptSecret(line, stored));
  }
  return (
    <>
      <Field
        label="Environment"
        error={error}
        hint={
          <>
            One <code>KEY=value</code> per line; the value is taken literally. <code>{SECRET_PLACEHOLDER}</code> stands for a
            stored secret: leave it to keep the value.
          </>
        }
      >
        {(control) => (
          <textarea
            {...control}
            rows={4}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder="API_KEY=…"
            value={draft.env}
            onChange={(e) => onTextChange(e.target.value)}
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
                checked={kept || isSecret(key, draft, stored)}
                disabled={kept}
                onChange={(e) => onSecretChange(key, e.target.checked)}
              />
              <code>{key}</code>
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
}
