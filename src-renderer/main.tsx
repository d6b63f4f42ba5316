import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { HostTransport } from './host-client';
import { connectHashHistory } from './routing/hash-history';
import { createAppStore } from './stores/app-store';
import { AppStoreContext } from './stores/use-app-store';
import { createElectronTransport } from './transports/electron-transport';
import { takeSessionCredential } from './transports/web-session';
import { createWebSocketTransport } from './transports/websocket-transport';
import { NotSignedIn } from './ui/NotSignedIn';
import './styles.css';

/** Electron's preload exposes window.patchbay; a plain browser (web mode) talks to the host over WebSocket. */
function chooseTransport(): HostTransport | null {
  if (window.patchbay) return createElectronTransport(window.patchbay);
  const credential = takeSessionCredential();
  return credential ? createWebSocketTransport({ credential }) : null;
}

const transport = chooseTransport();
const root = createRoot(document.getElementById('root')!);
if (transport) {
  const store = createAppStore(transport);
  // Where the app is follows the address (a reload, Back, Forward, a link) and the address follows it.
  connectHashHistory(store);
  root.render(
    <StrictMode>
      <AppStoreContext.Provider value={store}>
        <App />
      </AppStoreContext.Provider>
    </StrictMode>,
  );
} else {
  root.render(<NotSignedIn />);
}
