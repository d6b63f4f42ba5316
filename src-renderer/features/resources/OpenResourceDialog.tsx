import type { ResourceReadView } from '../../../src-preload/contract';
import { Modal } from '../../ui/Modal';
import { ReadResult } from './ReadResult';

/** The dialog of `Open` on a resource link (OpenResource.tsx): what the read returned, or why it failed. */
export function OpenResourceDialog({
  open,
  onOpenChange,
  name,
  uri,
  read,
  error,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  name: string;
  uri: string;
  /** null while reading. */
  read: ResourceReadView | null;
  error: string | null;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Resource ${name}`}
      className="modal-wide resource-modal"
      description={<code>{uri}</code>}
    >
      {error ? (
        <p role="alert" className="warning">
          {error}
        </p>
      ) : read ? (
        <ReadResult read={read} />
      ) : (
        <p className="muted" role="status">
          Reading…
        </p>
      )}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => onOpenChange(false)}>
          Close
        </button>
      </div>
    </Modal>
  );
}
