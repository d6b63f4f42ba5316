import { useId, type ReactNode } from 'react';
import { initialDraft, pathKey, type Draft, type Path } from './schema-draft';
import { labelOf, type FieldModel } from './schema-model';
import { Select } from '../../../ui/Select';

export interface SchemaFieldProps {
  name: string;
  model: FieldModel;
  draft: Draft;
  path: Path;
  required: boolean;
  errors: Map<string, string>;
  disabled?: boolean;
  onChange(path: Path, update: (old: Draft) => Draft): void;
}

interface ShellProps {
  label: string;
  required: boolean;
  hint?: string;
  error?: string;
  children(control: {
    id: string;
    'aria-describedby': string | undefined;
    'aria-invalid': true | undefined;
    'aria-required': true | undefined;
  }): ReactNode;
}

/** A labelled control with its hint or error beneath. The required mark sits outside the label: not part of the name. */
function Shell({ label, required, hint, error, children }: ShellProps) {
  const id = useId();
  const note = error ?? hint;
  return (
    <div className="field">
      <span className="field-label">
        <label htmlFor={id}>{label}</label>
        {required && (
          <span aria-hidden="true" className="required-mark">
            {' *'}
          </span>
        )}
      </span>
      {children({
        id,
        'aria-describedby': note ? `${id}-note` : undefined,
        'aria-invalid': error ? true : undefined,
        'aria-required': required ? true : undefined,
      })}
      {note && (
        <p id={`${id}-note`} className={error ? 'field-error' : 'hint'}>
          {note}
        </p>
      )}
    </div>
  );
}

const optionLabel = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** One argument of the Run form, drawn from its schema (recursively for arrays and objects). */
export function SchemaField({ name, model, draft, path, required, errors, disabled, onChange }: SchemaFieldProps) {
  const label = labelOf(name, model);
  const error = errors.get(pathKey(path));
  const set = (next: Draft) => onChange(path, () => next);

  if (model.kind === 'object' && draft.kind === 'object') {
    return (
      <fieldset className="schema-group">
        <legend>{label}</legend>
        {model.description && <p className="hint">{model.description}</p>}
        {error && <p className="field-error">{error}</p>}
        {model.properties.map((p) => (
          <SchemaField
            key={p.name}
            name={p.name}
            model={p.model}
            draft={draft.fields[p.name]}
            path={[...path, p.name]}
            required={p.required}
            errors={errors}
            disabled={disabled}
            onChange={onChange}
          />
        ))}
      </fieldset>
    );
  }

  if (model.kind === 'array' && draft.kind === 'array') {
    return (
      <fieldset className="schema-group">
        <legend>{label}</legend>
        {model.description && <p className="hint">{model.description}</p>}
        {error && <p className="field-error">{error}</p>}
        {draft.items.map((item, i) => (
          <div key={i} className="schema-array-item">
            <SchemaField
              name={`${label} ${i + 1}`}
              model={{ ...model.item, title: `${label} ${i + 1}` }}
              draft={item}
              path={[...path, i]}
              required
              errors={errors}
              disabled={disabled}
              onChange={onChange}
            />
            <button
              type="button"
              className="link"
              disabled={disabled}
              aria-label={`Remove ${label} ${i + 1}`}
              onClick={() => set({ kind: 'array', items: draft.items.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="secondary"
          disabled={disabled}
          onClick={() => set({ kind: 'array', items: [...draft.items, initialDraft(model.item, undefined)] })}
        >
          Add {label}
        </button>
      </fieldset>
    );
  }

  const hint =
    model.kind === 'json' ? `${model.description ? `${model.description} — ` : ''}as JSON (this field ${model.reason})` : model.description;
  return (
    <Shell label={label} required={required} hint={hint} error={error}>
      {(control) => {
        if (model.kind === 'boolean' && draft.kind === 'boolean') {
          return (
            <input
              type="checkbox"
              {...control}
              checked={draft.value ?? false}
              disabled={disabled}
              onChange={(e) => set({ kind: 'boolean', value: e.target.checked })}
            />
          );
        }
        if (model.kind === 'enum' && draft.kind === 'enum') {
          return (
            <Select
              {...control}
              value={String(draft.index)}
              disabled={disabled}
              onChange={(next) => set({ kind: 'enum', index: Number(next) })}
              options={[
                { value: '-1', label: required ? 'Choose…' : '(not set)' },
                ...model.options.map((option, i) => ({ value: String(i), label: optionLabel(option) })),
              ]}
            />
          );
        }
        if (draft.kind !== 'text') return null;
        if (model.kind === 'json' || (model.kind === 'string' && model.multiline)) {
          return (
            <textarea
              {...control}
              rows={model.kind === 'json' ? 4 : 3}
              spellCheck={false}
              value={draft.text}
              disabled={disabled}
              onChange={(e) => set({ kind: 'text', text: e.target.value })}
            />
          );
        }
        return (
          <input
            type="text"
            {...control}
            inputMode={model.kind === 'number' ? (model.integer ? 'numeric' : 'decimal') : undefined}
            value={draft.text}
            disabled={disabled}
            onChange={(e) => set({ kind: 'text', text: e.target.value })}
          />
        );
      }}
    </Shell>
  );
}
