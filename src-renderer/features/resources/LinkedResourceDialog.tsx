import { useEffect, useState } from 'react';
import type { ResourceReadView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { LinkedResourceOpener } from './linked-resource';
import { ReadResult } from './ReadResult';
import { Alert } from '../../ui/Alert';

/** The last segment of a URI's path, for a title ("architecture.md"); the URI itself when it has none. */
export function resourceNameOf(uri: string): string {
  const segment =
    uri
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? '';
  try {
    return decodeURIComponent(segment) || uri;
  } catch {
    return segment || uri;
  }
}

/**
 * A resource reached by a link inside another one, read through the same server (audited as a link
 * read) and shown the way the Resources tab shows a read. A link inside it shows that one here too.
 */
export function LinkedResourceDialog({ serverId, uri: first, onClose }: { serverId: string; uri: string; onClose(): void }) {
  const api = useAppStore((s) => s.api);
  const [uri, setUri] = useState(first);
  const [outcome, setOutcome] = useState<{ uri: string; read?: ResourceReadView; error?: string } | null>(null);
  useEffect(() => {
    let current = true;
    api.readResource({ serverId, uri, purpose: 'link' }).then(
      (read) => current && setOutcome({ uri, read }),
      (failure: unknown) => current && setOutcome({ uri, error: messageOf(failure) }),
    );
    return () => {
      current = false;
    };
  }, [api, serverId, uri]);
  const shown = outcome?.uri === uri ? outcome : null;
  return (
    <LinkedResourceOpener.Provider value={setUri}>
      <Modal
        open
        onOpenChange={(open) => !open && onClose()}
        title={`Resource ${resourceNameOf(uri)}`}
        className="modal-wide resource-modal"
        description={<code>{uri}</code>}
      >
        {shown?.error ? (
          <Alert message={shown.error} />
        ) : shown?.read ? (
          <ReadResult read={shown.read} />
        ) : (
          <p className="muted" role="status">
            Reading…
          </p>
        )}
        <div className="actions">
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </Modal>
    </LinkedResourceOpener.Provider>
  );
}
