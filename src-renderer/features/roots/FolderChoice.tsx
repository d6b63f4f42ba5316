import { useId } from 'react';
import type { RootView } from '@contract';

/** Which folders a server may see, as a form value. */
export interface FolderSelection {
  mode: 'none' | 'all' | 'subset';
  rootIds: string[];
}

export interface FolderChoiceProps {
  legend: string;
  roots: RootView[];
  /** null: not decided yet (nothing is selected). */
  value: FolderSelection | null;
  onChange(value: FolderSelection): void;
  /** Offer "No folders" as a choice (the server page does; the question has "Don't share" instead). */
  allowNone?: boolean;
  disabled?: boolean;
}

/**
 * Pick what a server may see: nothing, every folder (including ones added later), or only the ticked
 * ones. Ticking a folder switches to "only these", so one click does what it looks like it does.
 */
export function FolderChoice({ legend, roots, value, onChange, allowNone = false, disabled = false }: FolderChoiceProps) {
  const name = useId();
  const chosen = new Set(value?.rootIds);
  const toggle = (id: string, on: boolean) => {
    const base = value?.mode === 'subset' ? value.rootIds : value?.mode === 'all' ? roots.map((r) => r.id) : [];
    onChange({ mode: 'subset', rootIds: on ? [...new Set([...base, id])] : base.filter((x) => x !== id) });
  };
  const option = (mode: FolderSelection['mode'], label: string) => (
    <label className="roots-option">
      <input
        type="radio"
        name={name}
        checked={value?.mode === mode}
        disabled={disabled}
        onChange={() => onChange({ mode, rootIds: mode === 'subset' ? (value?.rootIds ?? []) : [] })}
      />
      {label}
    </label>
  );

  return (
    <fieldset className="roots-choice" disabled={disabled}>
      <legend>{legend}</legend>
      {allowNone && option('none', 'No folders')}
      {option('all', 'All folders, including ones added later')}
      {option('subset', 'Only these folders:')}
      {roots.length === 0 ? (
        <p className="muted roots-choice-list">No folders yet: add them on the Roots page.</p>
      ) : (
        <ul className="roots-choice-list" aria-label="Folders">
          {roots.map((root) => (
            <li key={root.id}>
              <label title={root.path}>
                <input
                  type="checkbox"
                  checked={value?.mode === 'all' || (value?.mode === 'subset' && chosen.has(root.id))}
                  disabled={disabled}
                  onChange={(e) => toggle(root.id, e.target.checked)}
                />
                {root.name}
                {root.readOnly && <span className="muted"> (read only)</span>}
                {!root.available && <span className="muted"> (unavailable)</span>}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
