import { useId, type ReactNode } from 'react';

/** What a field's control needs to be labelled, described and marked invalid. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

export interface FieldProps {
  label: string;
  /** Shown under the control while there is no error. */
  hint?: ReactNode;
  /** The host's (or the form's) complaint about this field; replaces the hint. */
  error?: string;
  children(control: FieldControlProps): ReactNode;
}

/** A labelled control with its hint or error right beneath it, tied together for screen readers. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': note ? noteId : undefined, 'aria-invalid': error ? true : undefined })}
      {note && (
        <p id={noteId} className={error ? 'field-error' : 'hint'}>
          {note}
        </p>
      )}
    </div>
  );
}
