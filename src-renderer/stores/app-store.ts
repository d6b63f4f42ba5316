import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HostApi, HostEvent, HostInfo, Settings } from '../../src-preload/contract';
import type { ConnectionState, HostTransport } from '../host-client';
import { createHostApi } from '../host-client';

export type Page = 'chat' | 'servers' | 'logs' | 'settings';

/** Mirror of host state, fed by HostEvents; the renderer never owns the truth. */
export interface HostSlice {
  connection: ConnectionState;
  info: HostInfo | null;
  settings: Settings | null;
  /** Last failure to load the snapshot, shown instead of a blank screen. */
  loadError: string | null;
}

export interface NavigationSlice {
  page: Page;
  navigate(page: Page): void;
}

export type AppState = HostSlice & NavigationSlice & { api: HostApi };
export type AppStore = StoreApi<AppState>;

/**
 * Creates the renderer's store around a transport. Order matters for a reload or reconnect that loses
 * nothing: subscribe to events first, then ask for the snapshot, then apply events as they come.
 */
export function createAppStore(transport: HostTransport, initialPage: Page = 'chat'): AppStore {
  const api = createHostApi(transport);
  const store = createStore<AppState>()((set) => ({
    api,
    connection: transport.onConnectionChange ? 'connecting' : 'connected',
    info: null,
    settings: null,
    loadError: null,
    page: initialPage,
    navigate: (page) => set({ page }),
  }));

  const apply = (event: HostEvent) => {
    switch (event.name) {
      case 'settingsChanged':
        store.setState({ settings: event.payload });
        break;
    }
  };
  transport.subscribe(apply);

  const loadSnapshot = async () => {
    try {
      const snapshot = await api.getSnapshot();
      store.setState({ info: snapshot.info, settings: snapshot.settings, loadError: null });
    } catch (error) {
      store.setState({ loadError: (error as Error).message });
    }
  };

  if (transport.onConnectionChange) {
    transport.onConnectionChange((connection) => {
      store.setState({ connection });
      if (connection === 'connected') void loadSnapshot();
    });
  } else {
    void loadSnapshot();
  }
  return store;
}
