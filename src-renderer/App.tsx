import { useEffect } from 'react';
import { AppNotices } from './features/app/AppNotices';
import { ChatPage } from './features/chat/ChatPage';
import { InstallFromOutside } from './features/install/InstallFromOutside';
import { LogsPage } from './features/logs/LogsPage';
import { RootsPage } from './features/roots/RootsPage';
import { ConsentQueueHost } from './features/sampling/ConsentQueueHost';
import { ServersPage } from './features/servers/ServersPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { Navigation } from './features/shell/Navigation';
import { useAppStore } from './stores/use-app-store';
import { ConnectionBanner } from './ui/ConnectionBanner';

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
        <AppNotices />
        <InstallFromOutside />
        {page === 'chat' && <ChatPage />}
        {page === 'servers' && <ServersPage />}
        {page === 'roots' && <RootsPage />}
        {page === 'logs' && <LogsPage />}
        {page === 'settings' && <SettingsPage />}
      </main>
      {/* Every consent dialog (folders, tool calls, sampling, elicitation): one at a time, oldest first. */}
      <ConsentQueueHost />
    </div>
  );
}
