import { useEffect } from 'react';
import { SettingsPage } from './features/settings/SettingsPage';
import { Navigation } from './features/shell/Navigation';
import { useAppStore } from './stores/use-app-store';
import { ConnectionBanner } from './ui/ConnectionBanner';
import { NotYetAvailable } from './ui/NotYetAvailable';

/** The shell: navigation, the connection banner, and the current page. Pages own their own state. */
export function App() {
  const page = useAppStore((s) => s.page);
  const navigate = useAppStore((s) => s.navigate);
  const connection = useAppStore((s) => s.connection);
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const loadError = useAppStore((s) => s.loadError);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="shell">
      <Navigation current={page} onNavigate={navigate} />
      <main className="content">
        <ConnectionBanner state={connection} />
        {loadError && (
          <p role="alert" className="warning">
            Could not load the host state: {loadError}
          </p>
        )}
        {page === 'chat' && <NotYetAvailable title="Chat" what="Chatting with Claude using your servers' tools comes in a later version." />}
        {page === 'servers' && <NotYetAvailable title="Servers" what="Adding and running MCP servers comes in a later version." />}
        {page === 'logs' && <NotYetAvailable title="Logs" what="Server and host logs come in a later version." />}
        {page === 'settings' && <SettingsPage />}
      </main>
    </div>
  );
}
