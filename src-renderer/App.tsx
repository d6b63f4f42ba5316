import { Suspense, useEffect } from 'react';
import { AppNotices } from './features/app/AppNotices';
import { ChatPage } from './features/chat/ChatPage';
import { markdownPart } from './features/chat/Markdown';
import { InstallFromOutside } from './features/install/InstallFromOutside';
import { consentDialogParts } from './features/sampling/consent-dialog-parts';
import { ConsentQueueHost } from './features/sampling/ConsentQueueHost';
import { Navigation } from './features/shell/Navigation';
import { useAppStore } from './stores/use-app-store';
import type { Page } from './stores/app-store';
import { ConnectionBanner } from './ui/ConnectionBanner';
import { lazyPart } from './ui/lazy-part';

/**
 * The pages other than Chat (the first one shown), each in its own chunk: the first paint loads the
 * shell and the chat only. All are fetched in the background once the first paint is done.
 */
const PAGES = {
  servers: lazyPart(async () => (await import('./features/servers/ServersPage')).ServersPage),
  roots: lazyPart(async () => (await import('./features/roots/RootsPage')).RootsPage),
  logs: lazyPart(async () => (await import('./features/logs/LogsPage')).LogsPage),
  settings: lazyPart(async () => (await import('./features/settings/SettingsPage')).SettingsPage),
} satisfies Partial<Record<Page, unknown>>;

const LATER = [...Object.values(PAGES), markdownPart, ...consentDialogParts];

/** Fetches every deferred chunk when the browser is idle after the first paint (errors: tried again on use). */
function preloadWhenIdle(): () => void {
  const start = () => LATER.forEach((part) => void part.preload().catch(() => undefined));
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(start, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(start, 200);
  return () => clearTimeout(timer);
}

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

  useEffect(preloadWhenIdle, []);

  const Deferred = page === 'chat' ? null : PAGES[page].Component;

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
        {Deferred && (
          <Suspense
            fallback={
              <p role="status" className="page-loading">
                Loading…
              </p>
            }
          >
            <Deferred />
          </Suspense>
        )}
      </main>
      {/* Every consent dialog (folders, tool calls, sampling, elicitation): one at a time, oldest first. */}
      <ConsentQueueHost />
    </div>
  );
}
