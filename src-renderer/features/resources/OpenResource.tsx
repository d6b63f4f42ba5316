import { useContext, useState } from 'react';
import { useStore } from 'zustand';
import type { ResourceReadView } from '../../../src-preload/contract';
import type { AppStore } from '../../stores/app-store';
import { AppStoreContext } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { ReadResult } from './ReadResult';

export interface OpenResourceProps {
  /** The server that returned the link: the resource is read through it. */
  serverId: string;
  uri: string;
  name: string;
}

/**
 * `Open` on a resource link (or an embedded resource) in a result or a prompt: reads it through the
 * server that returned it — the user's click, audited as a link read — and shows it in a dialog the
 * way the Resources tab does.
 */
export function OpenResourceButton(props: OpenResourceProps) {
  // Shown only where there is a host to read through (not in a bare presentational render).
  const store = useContext(AppStoreContext);
  return store ? <OpenResource {...props} store={store} /> : null;
}

function OpenResource({ serverId, uri, name, store }: OpenResourceProps & { store: AppStore }) {
  const api = useStore(store, (s) => s.api);
  const [open, setOpen] = useState(false);
  const [read, setRead] = useState<ResourceReadView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = async () => {
    setOpen(true);
    setRead(null);
    setError(null);
    try {
      setRead(await api.readResource({ serverId, uri, purpose: 'link' }));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <>
      <button type="button" className="link" aria-label={`Open ${name}`} onClick={() => void show()}>
        Open
      </button>
      <Modal
        open={open}
        onOpenChange={setOpen}
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
          <button type="button" className="secondary" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Modal>
    </>
  );
}
