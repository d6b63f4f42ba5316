import type { ApiKeyStatus } from '@contract';
import './chat-settings.css';

export interface ApiKeyFieldProps {
  id: string;
  /** What the host says about the key (never the key itself); null while unknown. */
  status: ApiKeyStatus | null;
  /** A key being entered; sent once with the form, then cleared. */
  value: string;
  onChange(value: string): void;
  error?: string;
  onClear(): void;
  clearing: boolean;
}

function describe(status: ApiKeyStatus | null): string {
  if (!status) return 'Checking…';
  if (status.state === 'not-set') return 'Not set.';
  if (status.source === 'environment') return 'Set, from the ANTHROPIC_API_KEY environment variable of the host.';
  return 'Set.';
}

/**
 * The Anthropic API key: a password field whose value goes to the host once (on Save) and is never
 * shown again. The host only ever tells us whether a key is set, where it came from and where it is kept.
 */
export function ApiKeyField({ id, status, value, onChange, error, onClear, clearing }: ApiKeyFieldProps) {
  const stored = status?.state === 'set' && status.source === 'stored';
  return (
    <div className="field api-key-field">
      <label htmlFor={id}>API key</label>
      <input
        id={id}
        data-api-key
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={status?.state === 'set' ? 'Enter a new key to replace it' : 'sk-ant-…'}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <div id={`${id}-hint`} className={error ? 'field-error' : 'hint'}>
        {error ?? (
          <>
            <span data-testid="api-key-state">{describe(status)}</span> {status?.storage}
            {status?.problem && <span className="field-error"> The stored key cannot be used: {status.problem}</span>}
          </>
        )}
      </div>
      {stored && (
        <div>
          <button type="button" className="button secondary" onClick={onClear} disabled={clearing}>
            Remove key
          </button>
        </div>
      )}
    </div>
  );
}

/** Known models as one-click choices for the Model field (a datalist would make it a combobox). */
export function ModelChoices({
  models,
  note,
  onPick,
}: {
  models: { id: string; displayName: string }[];
  note?: string;
  onPick(id: string): void;
}) {
  if (models.length === 0) return null;
  return (
    <div role="group" aria-label="Available models" className="model-choices">
      <span className="muted">{note ? 'Suggested:' : 'Available:'}</span>
      {models.slice(0, 12).map((m) => (
        <button key={m.id} type="button" className="link" title={m.displayName} onClick={() => onPick(m.id)}>
          {m.id}
        </button>
      ))}
    </div>
  );
}
