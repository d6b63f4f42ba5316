import { Suspense, useContext, useState } from 'react';
import { useStore } from 'zustand';
import type { ResourceReadView } from '@contract';
import type { AppStore } from '../../stores/app-store';
import { AppStoreContext } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { lazyPart, useMountedOnceOpen } from '../../ui/lazy-part';

export interface OpenResourceProps {
  /** The server that returned the link: the resource is read through it. */
  serverId: string;
  uri: string;
  name: string;
}

/** The dialog (and the resource previews in it), a chunk of its own: the first paint shows only the buttons. */
export const openResourceDialogPart = lazyPart(async () => (await import('./OpenResourceDialog')).OpenResourceDialog);
const OpenResourceDialog = openResourceDialogPart.Component;

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
  const mounted = useMountedOnceOpen(open);
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
      {mounted && (
        <Suspense fallback={null}>
          <OpenResourceDialog open={open} onOpenChange={setOpen} serverId={serverId} name={name} uri={uri} read={read} error={error} />
        </Suspense>
      )}
    </>
  );
}
