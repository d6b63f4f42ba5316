import { describe, expect, it } from 'vitest';
import type { ChatMessage, HostEvent, HostSnapshot } from '@contract';
import { applyDelta, chatSlice, mergePage, upsertMessage, type ChatState, type LoadedHistory } from './chat-slice';

const message = (id: number, seq: number, text = ''): ChatMessage => ({
  id,
  conversationId: 'c1',
  seq,
  role: seq % 2 ? 'user' : 'assistant',
  content: [{ type: 'text', text }],
  status: 'complete',
  createdAt: '',
});
const history = (messages: ChatMessage[], extra: Partial<LoadedHistory> = {}): LoadedHistory => ({
  messages,
  hasMore: false,
  stale: false,
  loadingOlder: false,
  ...extra,
});
const textOf = (h: LoadedHistory, i: number) => (h.messages[i].content[0] as { text: string }).text;

describe('chat slice', () => {
  it('applies streamed text by offset: in order, repeated ops skipped, a gap marks the history stale', () => {
    let h = history([message(1, 1, 'q'), { ...message(2, 2), status: 'streaming', content: [] }]);
    h = applyDelta(h, 2, [
      { op: 'block', index: 0, block: { type: 'text', text: '' } },
      { op: 'text', index: 0, at: 0, text: 'Hel' },
    ]);
    h = applyDelta(h, 2, [{ op: 'text', index: 0, at: 3, text: 'lo' }]);
    expect(textOf(h, 1)).toBe('Hello');
    h = applyDelta(h, 2, [{ op: 'text', index: 0, at: 3, text: 'lo' }]); // already have it
    expect(textOf(h, 1)).toBe('Hello');
    h = applyDelta(h, 2, [{ op: 'text', index: 0, at: 3, text: 'lo there' }]); // overlaps: takes the new tail
    expect(textOf(h, 1)).toBe('Hello there');
    expect(h.stale).toBe(false);
    h = applyDelta(h, 2, [{ op: 'text', index: 0, at: 50, text: '!' }]);
    expect(h.stale).toBe(true);
    expect(applyDelta(h, 99, [{ op: 'text', index: 0, at: 0, text: 'x' }])).toBe(h);
  });

  it('replaces a message by id, appends a newer one, and merges pages without gaps or duplicates', () => {
    const h = history([message(1, 1, 'a'), message(2, 2, 'b')]);
    expect(upsertMessage(h, message(2, 2, 'B')).messages.map((m) => textOf({ ...h, messages: [m] }, 0))).toEqual(['a', 'B']);
    expect(upsertMessage(h, message(3, 3)).messages.map((m) => m.seq)).toEqual([1, 2, 3]);

    const older = mergePage(
      history([message(5, 5), message(6, 6)], { hasMore: true }),
      { messages: [message(3, 3), message(4, 4), message(5, 5)], hasMore: false },
      'older',
    );
    expect(older.messages.map((m) => m.seq)).toEqual([3, 4, 5, 6]);
    expect(older.hasMore).toBe(false);
    const refreshed = mergePage(older, { messages: [message(6, 6, 'new'), message(7, 7)], hasMore: true }, 'newest');
    expect(refreshed.messages.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7]);
    const gap = mergePage(older, { messages: [message(20, 20)], hasMore: true }, 'newest');
    expect(gap.messages.map((m) => m.seq)).toEqual([20]);
    expect(gap.hasMore).toBe(true);
  });

  it('follows conversation events, ignores messages of conversations not opened, and starts over on a snapshot', () => {
    let state: ChatState = { ...chatSlice.initial, chatHistory: { c1: history([message(1, 1)]) } };
    const apply = (event: HostEvent) => (state = { ...state, ...chatSlice.apply!(state, event) });
    const summary = { id: 'c1', title: 't', createdAt: '', updatedAt: '', messageCount: 1, serverIds: null, turn: 'running' as const };
    apply({ name: 'conversationUpdated', payload: summary });
    apply({ name: 'chatMessage', payload: message(2, 2, 'hi') });
    apply({ name: 'chatMessage', payload: { ...message(9, 1), conversationId: 'other' } });
    expect(state.chatHistory.c1.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(state.chatHistory.other).toBeUndefined();
    state.activeConversationId = 'c1';
    apply({ name: 'conversationRemoved', payload: { id: 'c1' } });
    expect(state).toMatchObject({ conversations: {}, chatHistory: {}, activeConversationId: null });

    const snapshot = { chat: { conversations: [summary], llm: { apiKey: { state: 'set', storage: 'x' } } } } as HostSnapshot;
    expect(chatSlice.fromSnapshot!(snapshot)).toMatchObject({ conversations: { c1: summary }, chatHistory: {} });
    expect(chatSlice.fromSnapshot!({} as HostSnapshot)).toEqual({});
  });
});
