import { Modal } from '../../ui/Modal';

export interface RemoveServerDialogProps {
  name: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  onConfirm(): void;
}

/** "Remove <name>?" — the one confirmation before a server's configuration is deleted. */
export function RemoveServerDialog({ name, open, onOpenChange, onConfirm }: RemoveServerDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      title={`Remove ${name}?`}
      description="The server is stopped and its configuration, including stored secrets, is deleted."
    >
      <div className="actions">
        <button type="button" className="danger" onClick={onConfirm}>
          Remove
        </button>
        <button type="button" className="secondary" onClick={() => onOpenChange(false)} data-autofocus>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
