import type { ConnectionState } from '../host-client';

/** Tells the user when the host is out of reach; the transport reconnects by itself meanwhile. */
export function ConnectionBanner({ state }: { state: ConnectionState }) {
  if (state === 'connected') return null;
  return (
    <div role="status" className={`banner banner-${state}`}>
      {state === 'disconnected' ? 'Disconnected — reconnecting…' : 'Connecting to the Patchbay host…'}
    </div>
  );
}
