import { useState } from 'react';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { Alert } from '../../ui/Alert';

export interface SaveToolSetDialogProps {
  open: boolean;
  /** How many tools the selection offers (said in the dialog). */
  toolCount: number;
  onCancel(): void;
  /** Resolves once saved (the dialog then closes); a failure is shown in the dialog. */
  onSave(name: string): Promise<unknown>;
}

/** "Save as tool set…": names the current selection. */
export function SaveToolSetDialog({ open, toolCount, onCancel, onSave }: SaveToolSetDialogProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!name.trim()) return setError('A tool set needs a name.');
    setBusy(true);
    try {
      await onSave(name.trim());
      setName('');
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title="Save as tool set"
      description={`A named set of the ${toolCount} tools this conversation offers now, to choose in any conversation.`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          Name
          <input data-autofocus value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Coding" />
        </label>
        <Alert message={error} prefix="Could not save the tool set:" />
        <div className="actions">
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
