import { useState } from 'react';
import type { ResourceReadView } from '@contract';
import { Modal } from '../../ui/Modal';
import { LinkedResourceOpener } from './linked-resource';
import { LinkedResourceDialog } from './LinkedResourceDialog';
import { ReadResult } from './ReadResult';
import { Alert } from '../../ui/Alert';

/** The dialog of `Open` on a resource link (OpenResource.tsx): what the read returned, or why it failed. */
export function OpenResourceDialog({
  open,
  onOpenChange,
  serverId,
  name,
  uri,
  read,
  error,
}: {
  open: boolean;
  /** The server the resource was read through: its relative links are read through it too. */
  serverId: string;
  onOpenChange(open: boolean): void;
  name: string;
  uri: string;
  /** null while reading. */
  read: ResourceReadView | null;
  error: string | null;
}) {
  const [linked, setLinked] = useState<string | null>(null);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Resource ${name}`}
      className="modal-wide resource-modal"
      description={<code>{uri}</code>}
    >
      {error ? (
        <Alert message={error} />
      ) : read ? (
        <LinkedResourceOpener.Provider value={setLinked}>
          <ReadResult read={read} />
        </LinkedResourceOpener.Provider>
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
      {linked && <LinkedResourceDialog key={linked} serverId={serverId} uri={linked} onClose={() => setLinked(null)} />}
    </Modal>
  );
}
