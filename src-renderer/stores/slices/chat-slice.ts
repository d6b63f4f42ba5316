import type { ChatDeltaOp, ChatMessage, ConversationCursor, ConversationSummary, LlmStatus, MessagePage } from '@contract';
import type { StoreSlice } from './slice';

/** The loaded part of one conversation's history (newest pages; older ones load on scroll). */
export interface LoadedHistory {
  messages: ChatMessage[];
  /** Older messages exist before the first loaded one. */
  hasMore: boolean;
  /** A delta did not fit what we have (missed events): the page must be fetched again. */
  stale: boolean;
  /** An older page is being fetched. */
  loadingOlder: boolean;
}

/** How far the conversation list is loaded (the snapshot brings the first page; more load on scroll). */
export interface ConversationPaging {
  /** Where the last loaded page ended (null: nothing loaded). */
  cursor: ConversationCursor | null;
  hasMore: boolean;
  loading: boolean;
}

/** Conversations, the loaded history of opened ones and the API key status (live tool calls: the tools slice). */
export interface ChatState {
  /** The loaded conversations (the first pages, plus any opened from a search), by id. */
  conversations: Record<string, ConversationSummary>;
  conversationPaging: ConversationPaging;
  llm: LlmStatus | null;
  chatHistory: Record<string, LoadedHistory>;
  activeConversationId: string | null;
  /** What the user typed and has not sent, per conversation ('' for "no conversation yet"). */
  chatDrafts: Record<string, string>;
}

export const chatSlice: StoreSlice<ChatState> = {
  initial: {
    conversations: {},
    conversationPaging: { cursor: null, hasMore: false, loading: false },
    llm: null,
    chatHistory: {},
    activeConversationId: null,
    chatDrafts: {},
  },
  // A (re)connect starts from the host's truth: loaded histories are fetched again when shown, since
  // events may have been missed meanwhile. Tolerates a snapshot without `chat` (a test's partial one).
  fromSnapshot: (snapshot) =>
    snapshot.chat
      ? {
          conversations: Object.fromEntries(snapshot.chat.conversations.map((c) => [c.id, c])),
          conversationPaging: pagingAfter(snapshot.chat.conversations, snapshot.chat.moreConversations ?? false),
          llm: snapshot.chat.llm,
          chatHistory: {},
          // What was typed and not sent is kept by the host (a reload gives it back).
          ...(snapshot.chat.drafts ? { chatDrafts: snapshot.chat.drafts } : {}),
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'conversationUpdated':
        return { conversations: { ...state.conversations, [event.payload.id]: event.payload } };
      case 'conversationRemoved': {
        const id = event.payload.id;
        const { [id]: _c, ...conversations } = state.conversations;
        const { [id]: _h, ...chatHistory } = state.chatHistory;
        return { conversations, chatHistory, activeConversationId: state.activeConversationId === id ? null : state.activeConversationId };
      }
      case 'chatMessage':
        return withHistory(state, event.payload.conversationId, (h) => upsertMessage(h, event.payload));
      case 'chatDelta':
        return withHistory(state, event.payload.conversationId, (h) => applyDelta(h, event.payload.messageId, event.payload.ops));
      case 'llmStatusChanged':
        return { llm: event.payload };
      default:
        return undefined;
    }
  },
};

/** The paging state after a page: its last conversation is where the next page starts. */
export function pagingAfter(page: ConversationSummary[], hasMore: boolean, previous: ConversationCursor | null = null): ConversationPaging {
  const last = page[page.length - 1];
  return { cursor: last ? { updatedAt: last.updatedAt, id: last.id } : previous, hasMore, loading: false };
}

function withHistory(
  state: ChatState,
  conversationId: string,
  change: (h: LoadedHistory) => LoadedHistory,
): Partial<ChatState> | undefined {
  const history = state.chatHistory[conversationId];
  if (!history) return undefined; // not opened: loaded fresh when it is
  const next = change(history);
  return next === history ? undefined : { chatHistory: { ...state.chatHistory, [conversationId]: next } };
}

/** Replaces a message by id, or adds a newer one at the end (in seq order). */
export function upsertMessage(history: LoadedHistory, message: ChatMessage): LoadedHistory {
  const messages = history.messages;
  const at = messages.findIndex((m) => m.id === message.id);
  if (at >= 0) return { ...history, messages: messages.map((m, i) => (i === at ? message : m)) };
  const last = messages[messages.length - 1];
  if (last && message.seq < last.seq) {
    // Out of order (rare): insert in place.
    const sorted = [...messages, message].sort((a, b) => a.seq - b.seq);
    return { ...history, messages: sorted };
  }
  return { ...history, messages: [...messages, message] };
}

/** Applies streamed ops; text carries its offset, so a repeated op is skipped and a gap marks the history stale. */
export function applyDelta(history: LoadedHistory, messageId: number, ops: ChatDeltaOp[]): LoadedHistory {
  const at = history.messages.findIndex((m) => m.id === messageId);
  if (at < 0) return history;
  const content = [...history.messages[at].content];
  let stale = false;
  for (const op of ops) {
    if (op.op === 'block') {
      content[op.index] = op.block;
      continue;
    }
    const block = content[op.index];
    if (!block || block.type !== 'text') {
      stale = true;
      continue;
    }
    const length = block.text.length;
    if (op.at > length) stale = true;
    else if (op.at + op.text.length > length) content[op.index] = { ...block, text: block.text.slice(0, op.at) + op.text };
  }
  const messages = history.messages.map((m, i) => (i === at ? { ...m, content } : m));
  return { ...history, messages, stale: history.stale || stale };
}

/**
 * Merges a fetched page. `newest` refreshes the end (keeping loaded older messages when the page joins
 * them without a gap); `older` goes in front.
 */
export function mergePage(history: LoadedHistory | undefined, page: MessagePage, kind: 'newest' | 'older'): LoadedHistory {
  if (!history) return { messages: page.messages, hasMore: page.hasMore, stale: false, loadingOlder: false };
  if (kind === 'newest') {
    const start = page.messages[0]?.seq ?? Number.POSITIVE_INFINITY;
    const lastKept = history.messages.filter((m) => m.seq < start);
    const joins = lastKept.length > 0 && lastKept[lastKept.length - 1].seq === start - 1;
    return joins
      ? { ...history, messages: [...lastKept, ...page.messages], stale: false }
      : { ...history, messages: page.messages, hasMore: page.hasMore, stale: false };
  }
  const first = history.messages[0]?.seq ?? Number.POSITIVE_INFINITY;
  const older = page.messages.filter((m) => m.seq < first);
  // A page that brings nothing older ends the paging, whatever it claims (never ask again in a loop).
  return { ...history, messages: [...older, ...history.messages], hasMore: page.hasMore && older.length > 0, loadingOlder: false };
}
