import type { ReactNode } from 'react';
import { Alert } from './Alert';

export interface FormFooterProps {
  /** The form's own failure (not a field's), shown above the buttons. */
  error?: string;
  /** A save is under way: both buttons wait. */
  busy: boolean;
  onCancel(): void;
  /** What follows the buttons (a save's status line). */
  children?: ReactNode;
}

/** The end of a settings form (a server's, a provider's): the form's failure, then Save and Cancel. */
export function FormFooter({ error, busy, onCancel, children }: FormFooterProps) {
  return (
    <>
      <Alert message={error} tone="field-error" />
      <div className="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        {children}
      </div>
    </>
  );
}
