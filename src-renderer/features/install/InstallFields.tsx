import type { InstallField, InstallValues } from '@contract';
import { Field } from '../../ui/Field';
import { Select } from '../../ui/Select';

export interface InstallFieldsProps {
  fields: InstallField[];
  values: InstallValues;
  onChange(id: string, value: string | number | boolean): void;
  /** The desktop app's folder picker, for `directory` fields (web mode types the path). */
  pickFolder?: () => Promise<string | null>;
  disabled?: boolean;
}

/**
 * The values an install needs, one labelled control each: text (a password box for secrets, a list
 * for choices), numbers with their bounds, a tick for booleans, a path box for folders and files.
 * Required fields say so; a secret that is already stored may be left empty to keep it.
 */
export function InstallFields({ fields, values, onChange, pickFolder, disabled = false }: InstallFieldsProps) {
  if (fields.length === 0) return <p className="muted">It needs no settings.</p>;
  return (
    <fieldset className="install-fields" disabled={disabled}>
      <legend>Settings</legend>
      {fields.map((field) => {
        const value = Object.hasOwn(values, field.id) ? values[field.id] : (field.default ?? '');
        if (field.kind === 'boolean') {
          return (
            <label key={field.id} className="switch">
              <input type="checkbox" checked={value === true || value === 'true'} onChange={(e) => onChange(field.id, e.target.checked)} />
              {field.label}
              {field.description && <span className="hint"> — {field.description}</span>}
            </label>
          );
        }
        const hint = [
          field.required && !field.stored ? 'Required.' : undefined,
          field.description,
          field.stored ? 'Stored: leave empty to keep it.' : undefined,
          field.secret ? 'Stored encrypted, never shown again.' : undefined,
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <Field key={field.id} label={field.label} hint={hint || undefined}>
            {(control) =>
              field.choices ? (
                <Select
                  {...control}
                  required={field.required}
                  value={String(value)}
                  onChange={(next) => onChange(field.id, next)}
                  options={[
                    ...(field.required ? [] : [{ value: '', label: '—' }]),
                    ...field.choices.map((choice) => ({ value: choice, label: choice })),
                  ]}
                />
              ) : (
                <span className="install-field-row">
                  <input
                    {...control}
                    type={field.secret ? 'password' : field.kind === 'number' ? 'number' : 'text'}
                    autoComplete="off"
                    spellCheck={false}
                    required={field.required && !field.stored}
                    min={field.min}
                    max={field.max}
                    placeholder={field.placeholder ?? (field.kind === 'directory' || field.kind === 'file' ? '/path/to/…' : undefined)}
                    value={String(value)}
                    onChange={(e) =>
                      onChange(field.id, field.kind === 'number' && e.target.value !== '' ? e.target.valueAsNumber : e.target.value)
                    }
                  />
                  {field.kind === 'directory' && pickFolder && (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => void pickFolder().then((picked) => picked && onChange(field.id, picked))}
                    >
                      Choose…
                    </button>
                  )}
                </span>
              )
            }
          </Field>
        );
      })}
    </fieldset>
  );
}
