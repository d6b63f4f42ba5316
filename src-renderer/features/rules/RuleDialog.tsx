import { useId, type ReactNode } from 'react';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { Select, type SelectOption } from '../../ui/Select';

export interface RuleDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: string;
  className: string;
  /** The form's submit (Enter or its submit button); what it throws goes to `onError`, in words. */
  onSubmit(): Promise<void>;
  onError(message: string): void;
  children: ReactNode;
}

/** The frame both rule dialogs share (Add rule, Test a rule): a Radix dialog holding one form. */
export function RuleDialog({ open, onOpenChange, title, description, className, onSubmit, onError, children }: RuleDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <form
        className={`form ${className}`}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit().catch((failure: unknown) => onError(messageOf(failure)));
        }}
      >
        {children}
      </form>
    </Modal>
  );
}

/** A labelled choice of a rule dialog (server, argument, condition, decision). */
export function ChoiceField({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly SelectOption[];
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <Select id={id} value={value} onChange={onChange} options={options} />
    </div>
  );
}

/** A labelled line of text of a rule dialog (tool, argument, value). */
export function TextField({ label, value, onChange }: { label: ReactNode; value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
