import { useId, type ReactNode } from 'react';
import { HelpTip } from './HelpTip';

/** What a field's control needs to be labelled, described and marked invalid. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

export interface FieldProps {
  label: string;
  /** One short line shown under the control while there is no error. */
  hint?: ReactNode;
  /** The longer explanation, behind a "?" beside the label (keyboard reachable). */
  help?: ReactNode;
  /** The host's (or the form's) complaint about this field; replaces the hint. */
  error?: string;
  children(control: FieldControlProps): ReactNode;
}

/** A labelled control with its hint or error right beneath it, tied together for screen readers. */
export function Field({ label, hint, help, error, children }: FieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className="field">
      <span className="field-label">
        <label htmlFor={id}>{label}</label>
        {help && <HelpTip about={label}>{help}</HelpTip>}
      </span>
      {children({ id, 'aria-describedby': note ? noteId : undefined, 'aria-invalid': error ? true : undefined })}
      {note && (
        <p id={noteId} className={error ? 'field-error' : 'hint'}>
          {note}
        </p>
      )}
    </div>
  );
}
