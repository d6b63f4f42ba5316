import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { compareConversations, PRIMARY_PROVIDER_ID, type ChatMessage, type ProviderView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { openPicker } from '../../ui/open-picker';
import { useChatActions } from './chat-actions';
import { resultsById, visibleRows } from './chat-model';
import { ApiKeyGuidance, TurnErrorBanner } from './ChatNotices';
import { ContextComposer } from './context/ContextComposer';
import { ConversationList } from './ConversationList';
import { FirstRun } from './FirstRun';
import { MessageList } from './MessageList';
import { MessageView } from './MessageView';
import { ModelPicker } from './ModelPicker';
import { ServerToggles } from './ServerToggles';
import { ToolSetPicker } from './ToolSetPicker';
import { useConversationSearch } from './use-conversation-search';
import './chat.css';

/** The Chat page: the chat component that reads the store; everything below gets props (a tool card reads only its own call's live record). */
export function ChatPage() {
  const actions = useChatActions();
  const conversations = useAppStore(useShallow((s) => Object.values(s.conversations).sort(compareConversations)));
  const paging = useAppStore((s) => s.conversationPaging);
  const liveConversations = useAppStore((s) => s.conversations);
  const [searchText, setSearchText] = useState('');
  const search = useConversationSearch(searchText, actions.searchConversations);
  const [pagingError, setPagingError] = useState<string | undefined>();
  const activeId = useAppStore((s) => s.activeConversationId);
  const active = useAppStore((s) => (s.activeConversationId ? s.conversations[s.activeConversationId] : undefined));
  const history = useAppStore((s) => (s.activeConversationId ? s.chatHistory[s.activeConversationId] : undefined));
  const apiKey = useAppStore((s) => s.llm?.apiKey);
  const providers = useAppStore((s) => s.providers);
  const defaultChoice = useAppStore(
    useShallow((s) => ({ providerId: s.settings?.defaultProviderId ?? PRIMARY_PROVIDER_ID, model: s.settings?.defaultModel ?? '' })),
  );
  const servers = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.servers[id]).filter(Boolean)));
  const toolOffers = useAppStore((s) => s.toolOffers);
  const draftKey = activeId ?? '';
  const draft = useAppStore((s) => s.chatDrafts[draftKey] ?? '');
  const go = useAppStore((s) => s.go);
  const request = useAppStore((s) => s.request);
  const api = useAppStore((s) => s.api);
  const snapshotLoaded = useAppStore((s) => s.info !== null);
  const intent = useAppStore((s) => s.intent);
  const finishIntent = useAppStore((s) => s.finishIntent);
  const [failure, setFailure] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);

  // Open the most recent conversation when none is open.
  const newest = conversations[0]?.id;
  useEffect(() => {
    if (!activeId && newest) actions.open(newest);
  }, [activeId, newest, actions]);

  // "Focus the message box", asked for by a shortcut or the palette (from any page: it came here first).
  useEffect(() => {
    if (intent?.kind !== 'focus-message') return;
    finishIntent(intent);
    document.querySelector<HTMLTextAreaElement>('textarea[data-message-box]')?.focus();
  }, [intent, finishIntent]);

  // A conversation the address names that is not loaded (older than the loaded pages, or deleted).
  const unknown = snapshotLoaded && activeId !== null && !active;
  useEffect(() => {
    if (unknown && activeId) actions.reveal(activeId).catch((e: unknown) => setFailure(messageOf(e)));
  }, [unknown, activeId, actions]);

  // Fetch the newest page when a conversation is shown (again) without its history.
  const needsPage = active !== undefined && (!history || history.stale);
  useEffect(() => {
    if (activeId && needsPage) actions.loadNewest(activeId).catch((e: unknown) => setFailure(messageOf(e)));
  }, [activeId, needsPage, actions]);

  // For the benchmark: mark when an opened conversation's newest messages are on screen.
  const painted = activeId !== null && history !== undefined;
  useEffect(() => {
    if (!painted) return;
    const frame = requestAnimationFrame(() => performance.mark('patchbay:chat-painted', { detail: { conversationId: activeId } }));
    return () => cancelAnimationFrame(frame);
  }, [painted, activeId]);

  const messages = useMemo(() => history?.messages ?? [], [history]);
  const rows = useMemo(() => visibleRows(messages), [messages]);
  const results = useMemo(() => resultsById(messages), [messages]);
  const running = active?.turn === 'running';
  // The conversation's model, else the default (a removed provider's choice falls back to the Anthropic one).
  const choice = active?.providerId && active.model ? { providerId: active.providerId, model: active.model } : defaultChoice;
  const routed = providers.find((p) => p.id === choice.providerId) ?? providers.find((p) => p.id === PRIMARY_PROVIDER_ID);
  const renderRow = useCallback(
    (message: ChatMessage) => {
      const { author, detail } = authorOf(message, providers);
      return <MessageView message={message} results={results} turnRunning={running} author={author} authorDetail={detail} />;
    },
    [results, running, providers],
  );
  const loadOlder = useCallback(() => {
    if (activeId) actions.loadOlder(activeId).catch((e: unknown) => setFailure(messageOf(e)));
  }, [activeId, actions]);

  const loadMoreConversations = useCallback(() => {
    setPagingError(undefined);
    actions.loadMoreConversations().catch((e: unknown) => setPagingError(messageOf(e)));
  }, [actions]);
  // A search lists its matches as the host found them, updated by what events brought since (keeping where each matched).
  const listed = search.active
    ? search.results.map((c) => (liveConversations[c.id] ? { ...liveConversations[c.id], ...(c.match ? { match: c.match } : {}) } : c))
    : conversations;

  // The key the conversation's provider needs (none for providers whose key is optional).
  const keyStatus = routed ? (routed.keyRequired ? routed.apiKey : undefined) : apiKey;
  const showingMessages = active && history && rows.length > 0;
  // One key prompt a screen: inside Get started while that shows, else above the composer.
  const keyPrompt =
    keyStatus?.state === 'not-set' ? (
      <ApiKeyGuidance
        status={keyStatus}
        providerName={routed && !routed.primary ? routed.name : undefined}
        onSetKey={() => request('focus-api-key')}
        onOpenProviders={() => go({ page: 'settings', section: 'providers' })}
      />
    ) : undefined;

  const toolSetPicker = useRef<HTMLSpanElement>(null);
  // Too many tools for the provider: tool search on (Automatic), then the kept message is sent again.
  const turnOnToolSearch = async () => {
    try {
      await api.updateSettings({ toolSearch: 'automatic' });
    } catch (e) {
      setFailure(messageOf(e));
      return;
    }
    await retry();
  };

  const retry = async (withoutTools = false) => {
    if (!activeId) return;
    setRetrying(true);
    try {
      await actions.retry(activeId, withoutTools);
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setRetrying(false);
    }
  };

  return (
    <section aria-labelledby="page-title" className="page chat-page">
      <h1 id="page-title" className="visually-hidden">
        Chat
      </h1>
      <ConversationList
        conversations={listed}
        activeId={activeId}
        onSelect={(conversation) => actions.show(conversation)}
        hasMore={search.active ? search.hasMore : paging.hasMore}
        loading={search.active ? search.loading : paging.loading}
        onLoadMore={search.active ? search.loadMore : loadMoreConversations}
        search={searchText}
        onSearchChange={setSearchText}
        error={search.active ? search.error : pagingError}
        onNew={() => void actions.newConversation().catch((e: unknown) => setFailure(messageOf(e)))}
        onRename={actions.rename}
        defaultModel={defaultChoice.model || undefined}
        onDelete={(id) => actions.remove(id).then(() => search.forget(id))}
      />
      <div className="chat-main">
        <header className="chat-head">
          <h2 title={active?.title}>{active?.title ?? 'Chat'}</h2>
          {choice.model && (
            <ModelPicker
              providers={providers}
              value={choice}
              onChange={(next) => void actions.setModel(activeId, next).catch((e: unknown) => setFailure(messageOf(e)))}
            />
          )}
          {active && (
            <span ref={toolSetPicker} className="picker-anchor">
              <ToolSetPicker
                sets={toolOffers.sets}
                value={active.toolSetId}
                onChange={(toolSetId) => void actions.setToolSet(active.id, toolSetId).catch((e: unknown) => setFailure(messageOf(e)))}
              />
            </span>
          )}
          {active && (
            <ServerToggles
              servers={servers}
              selected={active.serverIds}
              onChange={(ids) => void actions.setServers(active.id, ids).catch((e: unknown) => setFailure(messageOf(e)))}
              tools={toolOffers.tools}
              set={toolOffers.sets.find((s) => s.id === active.toolSetId)}
              onOffer={(serverId, tool, offered) =>
                void api.setToolOffered({ serverId, tool, offered }).catch((e: unknown) => setFailure(messageOf(e)))
              }
              onSaveSet={(name, members) => api.saveToolSet({ name, members }).then((set) => actions.setToolSet(active.id, set.id))}
            />
          )}
        </header>
        {showingMessages ? (
          <MessageList
            rows={rows}
            hasMore={history.hasMore}
            loadingOlder={history.loadingOlder}
            onLoadOlder={loadOlder}
            renderRow={renderRow}
            conversationKey={active.id}
          />
        ) : activeId && !history ? (
          <div className="message-list-empty muted">Loading…</div>
        ) : (
          <FirstRun
            servers={servers}
            keyPrompt={keyPrompt}
            onQuickAdd={() => api.addPresetServer({ preset: 'everything' })}
            onOpenServers={() => go({ page: 'servers' })}
          />
        )}
        {running && (
          <p className="muted chat-working" role="status">
            {routed?.type === 'openai-compatible' ? choice.model : 'Claude'} is answering…
          </p>
        )}
        {showingMessages && keyPrompt}
        {active?.lastError && !running && (
          <TurnErrorBanner
            error={active.lastError}
            onRetry={() => void retry()}
            onContinueWithoutTools={() => void retry(true)}
            onTurnOnToolSearch={() => void turnOnToolSearch()}
            // No sets yet: Settings › Tool sets, where one is made; else the header's picker, opened.
            onChooseToolSet={() =>
              toolOffers.sets.length === 0 ? go({ page: 'settings', section: 'toolsets' }) : openPicker(toolSetPicker.current)
            }
            onOpenSettings={() => go({ page: 'settings', section: 'preferences' })}
            retrying={retrying}
          />
        )}
        {failure && (
          <div role="alert" className="warning chat-notice">
            <p>{failure}</p>
            <button type="button" className="button secondary" onClick={() => setFailure(null)}>
              Dismiss
            </button>
          </div>
        )}
        <ContextComposer
          draftKey={draftKey}
          servers={servers}
          selectedServers={active?.serverIds}
          draft={draft}
          onDraftChange={(text) => actions.setDraft(draftKey, text)}
          onSend={actions.send}
          onStop={() => (activeId ? actions.stop(activeId) : Promise.resolve())}
          running={running}
        />
      </div>
    </section>
  );
}

/** Who wrote an answer: "Claude" for the Anthropic type (and answers from before providers), else its model. */
function authorOf(message: ChatMessage, providers: readonly ProviderView[]): { author: string; detail?: string } {
  const provider = providers.find((p) => p.id === (message.providerId ?? PRIMARY_PROVIDER_ID));
  const detail = message.model ? `${provider?.name ?? 'Anthropic'} › ${message.model}` : undefined;
  if (!message.providerId || provider?.type === 'anthropic') return { author: 'Claude', detail };
  return { author: message.model ?? provider?.name ?? 'Assistant', detail };
}
