/**
 * What the chat page does: host calls, and the store changes that are not pushed by events (pages of
 * history, the open conversation, drafts). Everything the host decides still arrives as events.
 */
import { useContext, useMemo } from 'react';
import type { ConversationCursor, ConversationPage, ConversationSummary } from '@contract';
import type { AppStore } from '../../stores/app-store';
import { mergePage, pagingAfter, upsertMessage, type LoadedHistory } from '../../stores/slices/chat-slice';
import { AppStoreContext } from '../../stores/use-app-store';

/** Messages in the newest page (what opening a conversation paints), and in each older page. */
export const NEWEST_PAGE = 60;
export const OLDER_PAGE = 100;

export type ChatActions = ReturnType<typeof createChatActions>;

export function createChatActions(store: AppStore) {
  const api = () => store.getState().api;
  const setHistory = (id: string, change: (history: LoadedHistory | undefined) => LoadedHistory | undefined) =>
    store.setState((s) => {
      const next = change(s.chatHistory[id]);
      return next ? { chatHistory: { ...s.chatHistory, [id]: next } } : {};
    });

  /**
   * Drafts go to the host as they are typed (so a reload keeps them): one save in flight per draft, and
   * when it is done the newest text follows if it changed meanwhile.
   */
  const saving = new Map<string, { sent: string; next?: string }>();
  const saveDraft = (key: string, text: string) => {
    const current = saving.get(key);
    if (current) {
      current.next = text;
      return;
    }
    const entry: { sent: string; next?: string } = { sent: text };
    saving.set(key, entry);
    void api()
      .saveChatDraft({ conversationId: key, text })
      .catch(() => undefined) // the draft is still in memory; the next keystroke tries again
      .finally(() => {
        saving.delete(key);
        if (entry.next !== undefined && entry.next !== entry.sent) saveDraft(key, entry.next);
      });
  };

  /** A conversation being started because none was open (picking a model, sending): both wait for the same one. */
  let starting: Promise<string> | null = null;
  /** The open conversation, or a new one that takes over what was typed meanwhile. */
  const openOrStart = (): Promise<string> => {
    const open = store.getState().activeConversationId;
    if (open) return Promise.resolve(open);
    starting ??= actions
      .newConversation()
      .then(({ id }) => {
        const { ['']: typed = '', ...drafts } = store.getState().chatDrafts;
        const moved = drafts[id] || typed;
        store.setState({ chatDrafts: { ...drafts, [id]: moved } });
        saveDraft('', '');
        saveDraft(id, moved);
        return id;
      })
      .finally(() => (starting = null));
    return starting;
  };

  const actions = {
    /** Fetches the newest page (first open, after a reconnect, or when events were missed). */
    async loadNewest(id: string): Promise<void> {
      const page = await api().listMessages({ conversationId: id, limit: NEWEST_PAGE });
      setHistory(id, (h) => mergePage(h, page, 'newest'));
    },

    /** Fetches the page before the first loaded message. */
    async loadOlder(id: string): Promise<void> {
      const history = store.getState().chatHistory[id];
      if (!history || !history.hasMore || history.loadingOlder || history.messages.length === 0) return;
      setHistory(id, (h) => h && { ...h, loadingOlder: true });
      try {
        const page = await api().listMessages({ conversationId: id, beforeSeq: history.messages[0].seq, limit: OLDER_PAGE });
        setHistory(id, (h) => mergePage(h, page, 'older'));
      } catch (error) {
        setHistory(id, (h) => h && { ...h, loadingOlder: false });
        throw error;
      }
    },

    open(id: string | null): void {
      store.setState({ activeConversationId: id });
    },

    /** Opens a conversation the user picked, found by a search too (it may be older than the loaded pages: it is added). */
    show(conversation: ConversationSummary): void {
      store.setState((s) => ({
        conversations: { ...s.conversations, [conversation.id]: s.conversations[conversation.id] ?? conversation },
      }));
      store.getState().go({ page: 'chat', conversationId: conversation.id });
    },

    /**
     * A conversation the address names but the loaded pages do not have: fetched and added, or —
     * when it no longer exists — Chat shows its top level and says so.
     */
    async reveal(id: string): Promise<void> {
      const found = await api().getConversation({ id });
      if (found) {
        store.setState((s) => ({ conversations: { ...s.conversations, [id]: s.conversations[id] ?? found } }));
        return;
      }
      if (store.getState().activeConversationId !== id) return;
      store.setState({ activeConversationId: null });
      store.getState().go({ page: 'chat' }, { replace: true, notice: 'That conversation no longer exists: it may have been deleted.' });
    },

    /** Loads the next page of the conversation list (when the user scrolls near its end). */
    async loadMoreConversations(): Promise<void> {
      const paging = store.getState().conversationPaging;
      if (!paging.hasMore || paging.loading) return;
      store.setState({ conversationPaging: { ...paging, loading: true } });
      try {
        const page = await api().listConversations(paging.cursor ? { after: paging.cursor } : {});
        store.setState((s) => ({
          // Events may have brought a newer version of one meanwhile: that one wins.
          conversations: { ...Object.fromEntries(page.conversations.map((c) => [c.id, c])), ...s.conversations },
          conversationPaging: pagingAfter(page.conversations, page.hasMore, paging.cursor),
        }));
      } catch (error) {
        store.setState((s) => ({ conversationPaging: { ...s.conversationPaging, loading: false } }));
        throw error;
      }
    },

    /** A page of conversations whose title contains `query` (a search; the store is not changed). */
    searchConversations: (query: string, after?: ConversationCursor): Promise<ConversationPage> =>
      api().listConversations({ query, ...(after ? { after } : {}) }),

    async newConversation(): Promise<ConversationSummary> {
      const conversation = await api().createConversation();
      store.setState((s) => ({ conversations: { ...s.conversations, [conversation.id]: conversation } }));
      // A new place the user went to: Back returns to the conversation before it.
      store.getState().go({ page: 'chat', conversationId: conversation.id });
      return conversation;
    },

    /** Sends to the open conversation (starting one first when none is open), with what is attached to the draft. */
    async send(text: string): Promise<void> {
      // Attachments and a chosen prompt belong to the draft they were added to (the open conversation, or '' for a new one).
      const draftKey = store.getState().activeConversationId ?? '';
      const context = store.getState().chatContextDrafts[draftKey];
      const id = await openOrStart();
      const attachments = (context?.attachments ?? []).map(({ attachmentId, serverId, uri }) => ({ attachmentId, serverId, uri }));
      const message = await api().sendMessage({
        conversationId: id,
        text,
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(context?.prompt ? { promptUseId: context.prompt.useId } : {}),
      });
      if (context) store.setState((s) => ({ chatContextDrafts: { ...s.chatContextDrafts, [draftKey]: { attachments: [] } } }));
      // What was typed before the conversation existed moved to it (see openOrStart): sent now, so it goes.
      if (store.getState().chatDrafts[id]?.trim() === text.trim()) actions.setDraft(id, '');
      // The event brings it too; adding it here makes the message appear even if the page is still loading.
      setHistory(id, (h) => (h ? upsertMessage(h, message) : h));
    },

    /** The model of a conversation's next turns; with no conversation open, a new one starts with it. */
    async setModel(id: string | null, choice: { providerId: string; model: string }): Promise<void> {
      const conversationId = id ?? (await openOrStart());
      const updated = await api().setConversationModel({ id: conversationId, ...choice });
      store.setState((s) => ({ conversations: { ...s.conversations, [updated.id]: updated } }));
    },

    stop: (id: string) => api().stopTurn({ conversationId: id }),
    retry: (id: string, withoutTools = false) => api().retryTurn({ conversationId: id, ...(withoutTools ? { withoutTools } : {}) }),
    rename: (id: string, title: string) => api().renameConversation({ id, title }),
    setServers: (id: string, serverIds: string[] | null) => api().setConversationServers({ id, serverIds }),
    setToolSet: (id: string, toolSetId: string | null) => api().setConversationToolSet({ id, toolSetId }),
    async remove(id: string): Promise<void> {
      await api().deleteConversation({ id });
      if (store.getState().activeConversationId === id) store.setState({ activeConversationId: null });
    },

    setDraft(key: string, text: string): void {
      if ((store.getState().chatDrafts[key] ?? '') === text) return;
      store.setState((s) => ({ chatDrafts: { ...s.chatDrafts, [key]: text } }));
      saveDraft(key, text);
    },
  };
  return actions;
}

/** The chat actions bound to the nearest store. */
export function useChatActions(): ChatActions {
  const store = useContext(AppStoreContext);
  if (!store) throw new Error('useChatActions needs an AppStoreContext provider');
  return useMemo(() => createChatActions(store), [store]);
}
