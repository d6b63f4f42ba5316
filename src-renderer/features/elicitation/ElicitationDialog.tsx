import { useId, useMemo, useState } from 'react';
import type { ElicitationContent, ElicitationRequestView, ElicitationValue } from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { fieldsOf, initialValues, type FormField } from './form-model';
import { Select } from '../../ui/Select';
import { Alert } from '../../ui/Alert';

export interface ElicitationDialogProps {
  request: ElicitationRequestView;
  onResolve(action: 'accept' | 'decline' | 'cancel', content?: ElicitationContent): Promise<unknown>;
  /** URL mode: opens the URL (after the user accepted). */
  openUrl(url: string): void;
}

/**
 * "<server> asks…": a form generated from the requested schema (defaults pre-filled; the core
 * validates and field errors show beside their fields), or — URL mode — the full URL and its host,
 * opened only on Accept. Accept, Decline and Cancel are the spec's three actions; closing is Cancel.
 */
export function ElicitationDialog({ request, onResolve, openUrl }: ElicitationDialogProps) {
  const baseId = useId();
  const fields = useMemo(() => (request.requestedSchema ? fieldsOf(request.requestedSchema) : []), [request.requestedSchema]);
  const [values, setValues] = useState<ElicitationContent>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (action: 'accept' | 'decline' | 'cancel') => {
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      await onResolve(action, action === 'accept' && request.mode === 'form' ? values : undefined);
      if (action === 'accept' && request.mode === 'url' && request.url) openUrl(request.url);
    } catch (failure) {
      const issues = issuesOf(failure).filter((i) => i.path[0] === 'content');
      if (issues.length) setErrors(Object.fromEntries(issues.map((i) => [String(i.path[1]), i.message])));
      else setError(messageOf(failure));
      setBusy(false);
    }
  };
  const set = (key: string, value: ElicitationValue | undefined) =>
    setValues((v) => {
      const next = { ...v };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && void act('cancel')}
      title={`${request.serverName} asks…`}
      className="modal-wide elicitation-dialog"
      description={
        <>
          {request.message}
          {request.toolCall && (
            <>
              {' '}
              (during its tool call <code>{request.toolCall.tool}</code>)
            </>
          )}
        </>
      }
    >
      {request.mode === 'url' ? (
        <dl className="facts">
          <dt>URL</dt>
          <dd>
            <code>{request.url}</code>
          </dd>
          <dt>Host</dt>
          <dd>
            <strong>{request.urlHost}</strong>
          </dd>
        </dl>
      ) : (
        fields.map((field) => (
          <Field
            key={field.key}
            id={`${baseId}-${field.key}`}
            field={field}
            value={values[field.key]}
            error={errors[field.key]}
            disabled={busy}
            onChange={(v) => set(field.key, v)}
          />
        ))
      )}
      {request.mode === 'url' && <p className="hint">Accept opens this URL in your browser. Nothing opens otherwise.</p>}
      <Alert message={error} tone="field-error" />
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void act('accept')}>
          Accept
        </button>
        <button type="button" disabled={busy} onClick={() => void act('decline')}>
          Decline
        </button>
        <button type="button" disabled={busy} onClick={() => void act('cancel')}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

function Field({
  id,
  field,
  value,
  error,
  disabled,
  onChange,
}: {
  id: string;
  field: FormField;
  value: ElicitationValue | undefined;
  error?: string;
  disabled: boolean;
  onChange(value: ElicitationValue | undefined): void;
}) {
  const hint = error ?? field.description;
  const common = { id, disabled, 'aria-invalid': error ? true : undefined, 'aria-describedby': hint ? `${id}-hint` : undefined } as const;
  let control;
  if (field.kind === 'boolean') {
    control = <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (field.kind === 'select') {
    control = (
      <Select
        {...common}
        value={typeof value === 'string' ? value : ''}
        onChange={(next) => onChange(next || undefined)}
        options={[{ value: '', label: '—' }, ...field.choices]}
      />
    );
  } else if (field.kind === 'multi') {
    const chosen = Array.isArray(value) ? value : [];
    control = (
      <select {...common} multiple value={chosen} onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value))}>
        {field.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'number' || field.kind === 'integer') {
    control = (
      <input
        type="number"
        {...common}
        step={field.kind === 'integer' ? 1 : 'any'}
        min={field.min}
        max={field.max}
        value={typeof value === 'number' ? value : ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    );
  } else {
    control = (
      <input
        type={field.inputType}
        {...common}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        {field.required ? ' (required)' : ''}
      </label>
      {control}
      {hint && (
        <p id={`${id}-hint`} className={error ? 'field-error' : 'hint'}>
          {hint}
        </p>
      )}
    </div>
  );
}
