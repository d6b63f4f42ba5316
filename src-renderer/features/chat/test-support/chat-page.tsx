/**
 * The Chat page in component tests: jsdom given the sizes the virtualized lists read, the Markdown
 * chunk fetched up front, data factories, and a fake host with a chat.
 */
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ChatMessage, ConversationSummary, LlmStatus } from '@contract';
import { fakeHost, renderWithHost, type FakeHost } from '../../../test-support/fake-host';
import { ChatPage } from '../ChatPage';
import { markdownPart } from '../Markdown';

// jsdom lays nothing out: give the message list (the virtualizer reads clientHeight) and its rows
// (offsetHeight) a size, so the virtualizer renders what a 600 px viewport shows.
const sized = (owner: typeof Element | typeof HTMLElement, name: 'clientHeight' | 'offsetHeight', className: string, px: number) => {
  const real = Object.getOwnPropertyDescriptor(owner.prototype, name)!;
  Object.defineProperty(owner.prototype, name, {
    configurable: true,
    get(this: Element) {
      return this.classList.contains(className) ? px : real.get!.call(this);
    },
  });
  return () => Object.defineProperty(owner.prototype, name, real);
};

/** Registers the file's hooks: cleanup after each test, the layout sizes and the Markdown chunk before all. */
export function setUpChatPageTests(): void {
  afterEach(cleanup);
  // The Markdown renderer is its own chunk, fetched after the first paint in the app: fetch it up front.
  beforeAll(() => markdownPart.preload());
  const restore: (() => void)[] = [];
  beforeAll(() => {
    restore.push(
      sized(Element, 'clientHeight', 'message-list', 600),
      sized(HTMLElement, 'offsetHeight', 'message-row', 100),
      sized(Element, 'clientHeight', 'conversation-scroll', 500),
      sized(HTMLElement, 'offsetHeight', 'conversation-item', 50),
    );
  });
  afterAll(() => restore.forEach((undo) => undo()));
}

export const NO_KEY: LlmStatus = { apiKey: { state: 'not-set', storage: 'Encrypted in the data directory.' } };
export const KEY_SET: LlmStatus = { apiKey: { state: 'set', source: 'stored', storage: 'Encrypted in the data directory.' } };

export const conversation = (extra: Partial<ConversationSummary> = {}): ConversationSummary => ({
  id: 'c1',
  title: 'Sums',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  messageCount: 0,
  serverIds: null,
  turn: 'idle',
  ...extra,
});

export const text = (
  id: number,
  seq: number,
  role: 'user' | 'assistant',
  t: string,
  status: ChatMessage['status'] = 'complete',
): ChatMessage => ({
  id,
  conversationId: 'c1',
  seq,
  role,
  content: [{ type: 'text', text: t }],
  status,
  createdAt: '2026-01-01T00:00:00Z',
});

/** The fake host with a chat: history from `histories` (paged by keyset), sends and creations answered. */
export function fakeChatHost(
  llm: LlmStatus,
  conversations: ConversationSummary[],
  histories: Record<string, ChatMessage[]> = {},
  extra: Pick<Parameters<typeof fakeHost>[0] & object, 'toolOffers'> = {},
) {
  return fakeHost({
    ...extra,
    chat: { conversations, llm },
    replies: {
      listMessages: ({ conversationId, beforeSeq, limit }: { conversationId: string; beforeSeq?: number; limit: number }) => {
        const before = (histories[conversationId] ?? []).filter((m) => beforeSeq === undefined || m.seq < beforeSeq);
        return { messages: before.slice(-limit), hasMore: before.length > limit };
      },
      sendMessage: ({ text: typed }: { text: string }) => text(100, 1, 'user', typed),
      createConversation: () => conversation({ id: 'new', title: 'New conversation' }),
    },
  });
}

/** Renders the Chat page on `host` (the snapshot, then the first page); resolves with the store. */
export async function renderChatPage(host: FakeHost) {
  const { store } = await renderWithHost(<ChatPage />, host, 'chat');
  return store;
}
