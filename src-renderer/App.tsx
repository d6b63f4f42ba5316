import { Suspense, useEffect, useState } from 'react';
import { AppNotices } from './features/app/AppNotices';
import { useChatActions } from './features/chat/chat-actions';
import { ChatPage } from './features/chat/ChatPage';
import { deleteDialogPart, renameDialogPart } from './features/chat/ConversationList';
import { contextDialogParts } from './features/chat/context/context-dialog-parts';
import { timelineDialogPart } from './features/telemetry/timeline-part';
import { markdownPart } from './features/chat/Markdown';
import { installDialogPart } from './features/install/install-dialog-part';
import { openResourceDialogPart } from './features/resources/OpenResource';
import { InstallFromOutside } from './features/install/InstallFromOutside';
import { questionDialogParts } from './features/questions/question-dialog-parts';
import { QuestionHost } from './features/questions/QuestionHost';
import { Navigation } from './features/shell/Navigation';
import { ShellNotice } from './features/shell/ShellNotice';
import { useShortcuts } from './features/shell/use-shortcuts';
import { useAppStore } from './stores/use-app-store';
import type { Page } from './stores/app-store';
import { actionsDropdownPart } from './ui/ActionsMenu';
import { ConnectionBanner } from './ui/ConnectionBanner';
import { OrganisationBanner } from './features/rules/OrganisationBanner';
import { messageOf } from './ui/call-errors';
import { lazyPart, useMountedOnceOpen } from './ui/lazy-part';
import { Alert } from './ui/Alert';

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

/** The command palette (Ctrl/⌘+K): cmdk and the palette's items, not needed before it opens. */
const palettePart = lazyPart(async () => (await import('./features/palette/CommandPalette')).CommandPalette);

const LATER = [
  ...Object.values(PAGES),
  markdownPart,
  ...questionDialogParts,
  palettePart,
  installDialogPart,
  ...contextDialogParts,
  timelineDialogPart,
  renameDialogPart,
  deleteDialogPart,
  openResourceDialogPart,
  actionsDropdownPart,
];

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

const PAGE_TITLES = { chat: 'Chat', servers: 'Servers', roots: 'Roots', logs: 'Logs', settings: 'Settings' } as const;

/**
 * The shell: a skip link, the navigation, the connection banner, the current page, the command
 * palette and the app's shortcuts. Pages own their own state; where the app is lives in the store
 * (stores/navigation.ts), mirrored to the address.
 */
export function App() {
  const page = useAppStore((s) => s.page);
  const navigate = useAppStore((s) => s.navigate);
  const request = useAppStore((s) => s.request);
  const say = useAppStore((s) => s.say);
  const api = useAppStore((s) => s.api);
  const connection = useAppStore((s) => s.connection);
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const loadError = useAppStore((s) => s.loadError);
  const running = useAppStore((s) =>
    s.page === 'chat' && s.activeConversationId && s.conversations[s.activeConversationId]?.turn === 'running'
      ? s.activeConversationId
      : null,
  );
  const chat = useChatActions();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const paletteMounted = useMountedOnceOpen(paletteOpen);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // A server's pages are titled by the server (a window list or a tab shows which one).
  const serverTitle = useAppStore((s) =>
    s.route.page === 'servers' && s.route.serverId ? (s.servers[s.route.serverId]?.config.name ?? null) : null,
  );
  useEffect(() => {
    document.title = `${serverTitle ?? PAGE_TITLES[page]} — Patchbay`;
  }, [page, serverTitle]);

  useShortcuts({
    palette: () => setPaletteOpen((open) => !open),
    'new-conversation': () =>
      void chat.newConversation().then(
        () => request('focus-message'),
        (error: unknown) => say(`Could not start a conversation: ${messageOf(error)}`),
      ),
    'focus-message': () => request('focus-message'),
    stop: () => {
      if (running) void api.stopTurn({ conversationId: running }).catch((error: unknown) => say(`Could not stop: ${messageOf(error)}`));
    },
  });

  useEffect(preloadWhenIdle, []);

  const Deferred = page === 'chat' ? null : PAGES[page].Component;

  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // The address stays the route's: focus moves, the hash does not.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to main content
      </a>
      <Navigation current={page} onNavigate={navigate} onOpenPalette={() => setPaletteOpen(true)} />
      <main className="content" id="main" tabIndex={-1}>
        <ConnectionBanner state={connection} />
        <OrganisationBanner />
        <Alert message={loadError} prefix="Could not load the host state:" />
        <ShellNotice />
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
      {paletteMounted && (
        <Suspense fallback={null}>
          <palettePart.Component open={paletteOpen} onOpenChange={setPaletteOpen} />
        </Suspense>
      )}
      {/* Every question to the user (folders, tool calls, sampling, elicitation): one at a time, oldest first. */}
      <QuestionHost />
    </div>
  );
}
