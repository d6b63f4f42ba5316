import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeHost } from '../../test-support/fake-host';
import {
  conversation,
  fakeChatHost,
  KEY_SET,
  NO_KEY,
  renderChatPage as renderPage,
  setUpChatPageTests,
  text,
} from './test-support/chat-page';

setUpChatPageTests();

describe('ChatPage', () => {
  it('without an API key says how to add one, once (inside Get started on first run), and its button goes there', async () => {
    const host = fakeChatHost(NO_KEY, []);
    const store = await renderPage(host);
    const note = within(screen.getByRole('region', { name: 'Get started' })).getByRole('note', { name: 'API key needed' });
    expect(note.textContent).toMatch(/Add an Anthropic API key.*API key.*Settings/);
    // One prompt on the screen: no second note, no second button to the key.
    expect(screen.getAllByRole('note', { name: 'API key needed' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /Set the API key|Open Settings/ })).toHaveLength(1);
    fireEvent.click(within(note).getByRole('button', { name: 'Set the API key' }));
    expect(store.getState().route).toEqual({ page: 'settings', section: 'preferences' });
  });

  it('without an API key in a conversation with messages, the one prompt sits above the composer', async () => {
    const host = fakeChatHost(NO_KEY, [conversation({ messageCount: 1 })], { c1: [text(1, 1, 'user', 'Hi')] });
    await renderPage(host);
    await waitFor(() => expect(screen.getByText('Hi')).toBeTruthy());
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
    expect(screen.getAllByRole('note', { name: 'API key needed' })).toHaveLength(1);
  });

  it('sends, streams the answer in as deltas, and shows tool calls with their live status', async () => {
    const host = fakeChatHost(KEY_SET, [conversation()]);
    await renderPage(host);
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'What is 2 + 3?' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(host.calls.find((c) => c.method === 'sendMessage')?.input).toEqual({ conversationId: 'c1', text: 'What is 2 + 3?' });

    host.emit({ name: 'conversationUpdated', payload: conversation({ turn: 'running', messageCount: 1 }) });
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    host.emit({ name: 'chatMessage', payload: { ...text(101, 2, 'assistant', ''), content: [], status: 'streaming' } });
    host.emit({
      name: 'chatDelta',
      payload: {
        conversationId: 'c1',
        messageId: 101,
        ops: [
          { op: 'block', index: 0, block: { type: 'text', text: '' } },
          { op: 'text', index: 0, at: 0, text: 'Let me **add**' },
        ],
      },
    });
    const log = screen.getByRole('log', { name: 'Messages' });
    expect((await within(log).findByText('add')).tagName).toBe('STRONG');
    host.emit({
      name: 'chatDelta',
      payload: {
        conversationId: 'c1',
        messageId: 101,
        ops: [
          {
            op: 'block',
            index: 1,
            block: {
              type: 'tool_use',
              id: 'tu1',
              name: 'x__get-sum',
              input: { a: 2, b: 3 },
              serverId: 's',
              serverName: 'Everything (demo)',
              toolName: 'get-sum',
            },
          },
        ],
      },
    });
    host.emit({ name: 'toolCallWaiting', payload: { callId: 'call-1', chat: { conversationId: 'c1', toolUseId: 'tu1' } } });
    const card = screen.getByRole('article', { name: 'Tool call get-sum on Everything (demo)' });
    expect(within(card).getByRole('status').textContent).toBe('Waiting for approval');
    host.emit({
      name: 'chatMessage',
      payload: {
        id: 102,
        conversationId: 'c1',
        seq: 3,
        role: 'user',
        status: 'complete',
        createdAt: '',
        content: [{ type: 'tool_result', toolUseId: 'tu1', content: [{ type: 'text', text: '5' }], isError: false, outcome: 'done' }],
      },
    });
    expect(within(card).getByRole('status').textContent).toBe('Done');
    // The results-only message is not a row of its own.
    expect(log.querySelectorAll('article.message')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(host.calls.at(-1)).toEqual({ method: 'stopTurn', input: { conversationId: 'c1' } });
  });

  it('shows a failed turn with Retry, and keeps what was typed', async () => {
    const failed = conversation({
      messageCount: 1,
      lastError: { kind: 'rate-limit', message: 'Rate limited: wait, then Retry.', retryable: true, at: '' },
    });
    const host = fakeChatHost(KEY_SET, [failed], { c1: [text(1, 1, 'user', 'Hi')] });
    await renderPage(host);
    expect(screen.getByRole('alert').textContent).toContain('Rate limited');
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'draft in progress' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    // The context meter counts in between: only the retry matters here.
    expect(host.calls.filter((c) => c.method !== 'measureContext').at(-1)).toEqual({
      method: 'retryTurn',
      input: { conversationId: 'c1' },
    });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('draft in progress');
  });

  it('too many tools: "Choose a tool set" opens the header\'s Tool set picker, or Settings › Tool sets when there is none', async () => {
    const tooMany = conversation({
      messageCount: 1,
      lastError: { kind: 'too-many-tools', message: 'Not sent: this conversation offers 133 tools…', retryable: true, at: '' },
    });
    const set = { id: 's1', name: 'Research', members: { servers: [], tools: [] }, unavailable: [] };
    const withSets = fakeChatHost(KEY_SET, [tooMany], { c1: [text(1, 1, 'user', 'Hi')] }, { toolOffers: { sets: [set] } });
    await renderPage(withSets);
    const picker = screen.getByRole('combobox', { name: 'Tool set' });
    expect(screen.queryByRole('option', { name: 'Research' })).toBeNull();
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Choose a tool set' }));
    // The picker is open: its sets are there to choose.
    expect(await screen.findByRole('option', { name: 'Research' })).toBeTruthy();
    expect(picker.getAttribute('aria-expanded')).toBe('true');
    cleanup();

    const store = await renderPage(fakeChatHost(KEY_SET, [tooMany], { c1: [text(1, 1, 'user', 'Hi')] }));
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Choose a tool set' }));
    expect(store.getState().route).toEqual({ page: 'settings', section: 'toolsets' });
  });

  it('virtualizes long histories and pages older messages by keyset', async () => {
    const all = Array.from({ length: 1000 }, (_, i) => text(1 + i, 1 + i, i % 2 ? 'assistant' : 'user', `message ${1 + i}`));
    const host = fakeChatHost(KEY_SET, [conversation({ messageCount: 1000 })], { c1: all });
    const store = await renderPage(host);
    const pages = () => host.calls.filter((c) => c.method === 'listMessages').map((c) => c.input);
    expect(pages()[0]).toEqual({ conversationId: 'c1', limit: 60 });
    const log = screen.getByRole('log', { name: 'Messages' });
    const toTop = async () => {
      await act(async () => {
        log.scrollTop = 0;
        fireEvent.scroll(log);
      });
      await act(async () => undefined);
    };
    // At the top, the page before the first loaded message is asked for, by keyset; the visible
    // message stays in place (end anchoring), so the next page waits for the next scroll to the top.
    await toTop();
    expect(pages()[1]).toEqual({ conversationId: 'c1', beforeSeq: 941, limit: 100 });
    await toTop();
    expect(pages()[2]).toEqual({ conversationId: 'c1', beforeSeq: 841, limit: 100 });
    expect(store.getState().chatHistory.c1.messages.length).toBe(260);
    // However much is loaded, only about a viewport of rows is in the DOM.
    const rendered = log.querySelectorAll('article.message').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(25);
  });

  it('creates, renames and deletes conversations', async () => {
    const host = fakeChatHost(KEY_SET, [conversation()]);
    await renderPage(host);
    const list = screen.getByRole('navigation', { name: 'Conversations' });
    await act(async () => fireEvent.click(within(list).getByRole('button', { name: 'New conversation' })));
    expect(host.calls.some((c) => c.method === 'createConversation')).toBe(true);

    // Rename and Delete are in each row's menu, opened from the keyboard as well (the first time, the
    // menu's chunk arrives after the key press, which then opens it).
    const menuItem = async (name: string) => {
      await act(async () => fireEvent.keyDown(within(list).getByRole('button', { name: 'Actions for Sums' }), { key: 'Enter' }));
      const menu = await screen.findByRole('menu', { name: 'Actions for Sums' });
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(['Rename', 'Delete']);
      await act(async () => fireEvent.click(within(menu).getByRole('menuitem', { name })));
    };
    await menuItem('Rename');
    // The dialogs are a chunk of their own, loaded on first use.
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Arithmetic' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(host.calls.at(-1)).toEqual({ method: 'renameConversation', input: { id: 'c1', title: 'Arithmetic' } });

    await menuItem('Delete');
    const confirm = await screen.findByRole('alertdialog');
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' })));
    expect(host.calls.at(-1)).toEqual({ method: 'deleteConversation', input: { id: 'c1' } });
  });

  it('loads older conversations as the list scrolls to its end, and searches all of them by title', async () => {
    // 250 conversations, newest first; the snapshot holds the first 100, the rest come by keyset.
    const all = Array.from({ length: 250 }, (_, i) =>
      conversation({
        id: `c${String(1000 - i)}`,
        title: i === 230 ? 'Tax return 2019' : `Conversation ${i}`,
        updatedAt: new Date(Date.parse('2026-01-01T00:00:00Z') - i * 60_000).toISOString(),
      }),
    );
    const host = fakeHost({
      chat: { conversations: all.slice(0, 100), moreConversations: true, llm: KEY_SET },
      replies: {
        listMessages: () => ({ messages: [], hasMore: false }),
        listConversations: ({ after, query, limit = 100 }: { after?: { id: string }; query?: string; limit?: number }) => {
          const matching = all.filter((c) => !query || c.title.toLowerCase().includes(query.toLowerCase()));
          const from = after ? matching.findIndex((c) => c.id === after.id) + 1 : 0;
          return { conversations: matching.slice(from, from + limit), hasMore: from + limit < matching.length };
        },
      },
    });
    const store = await renderPage(host);
    const list = screen.getByRole('navigation', { name: 'Conversations' });
    const pages = () => host.calls.filter((c) => c.method === 'listConversations').map((c) => c.input);
    // Only what is in view is in the DOM, and nothing more is asked for until the end comes near.
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(30);
    expect(pages()).toEqual([]);

    const scroller = list.querySelector('.conversation-scroll')!;
    const toEnd = async () => {
      await act(async () => {
        scroller.scrollTop = 50 * Object.keys(store.getState().conversations).length;
        fireEvent.scroll(scroller);
      });
      await act(async () => undefined);
    };
    await toEnd();
    expect(pages()[0]).toEqual({ after: { updatedAt: all[99].updatedAt, id: all[99].id } });
    expect(Object.keys(store.getState().conversations)).toHaveLength(200);
    await toEnd();
    expect(pages()[1]).toEqual({ after: { updatedAt: all[199].updatedAt, id: all[199].id } });
    expect(Object.keys(store.getState().conversations)).toHaveLength(250);
    await toEnd();
    expect(pages()).toHaveLength(2); // the end: nothing more to ask for

    // A search asks the host (all conversations, not just the loaded ones) and lists only the matches.
    store.setState({ conversations: Object.fromEntries(all.slice(0, 100).map((c) => [c.id, c])) });
    fireEvent.change(within(list).getByRole('searchbox', { name: 'Search conversations' }), { target: { value: ' tax ' } });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(pages().at(-1)).toEqual({ query: 'tax' });
    await act(async () => fireEvent.click(within(list).getByRole('button', { name: /^Tax return 2019/ })));
    expect(store.getState().activeConversationId).toBe(all[230].id);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Tax return 2019');

    fireEvent.change(within(list).getByRole('searchbox', { name: 'Search conversations' }), { target: { value: 'nothing like it' } });
    await waitFor(() =>
      expect(within(list).getByRole('status').textContent).toBe('No conversation’s title or messages contain “nothing like it”.'),
    );
    fireEvent.change(within(list).getByRole('searchbox', { name: 'Search conversations' }), { target: { value: '' } });
    expect(within(list).getAllByRole('listitem').length).toBeGreaterThan(5);
  });

  it('copies a code block and a whole message; a search quotes the message that matched; each row names its model', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const answer = 'Run this:\n\n```js\nconst sum = 2 + 3;\nconsole.log(sum);\n```\n\nIt prints 5.';
    const host = fakeChatHost(KEY_SET, [conversation({ providerId: 'anthropic', model: 'claude-sonnet-5-5' })], {
      c1: [text(1, 1, 'user', 'Show me a sum'), text(2, 2, 'assistant', answer)],
    });
    host.replies.listConversations = () => ({
      conversations: [conversation({ title: 'Sums', match: '…console.log(sum); It prints 5.' })],
      hasMore: false,
    });
    await renderPage(host);
    const list = screen.getByRole('navigation', { name: 'Conversations' });
    expect(within(list).getByRole('button', { name: /^Sums/ }).textContent).toContain('claude-sonnet-5-5');

    const reply = screen.getByRole('article', { name: 'Claude' });
    await act(async () => fireEvent.click(within(reply).getByRole('button', { name: 'Copy code' })));
    expect(writeText).toHaveBeenLastCalledWith('const sum = 2 + 3;\nconsole.log(sum);');
    expect(within(reply).getByText('Copied')).toBeTruthy();
    await act(async () => fireEvent.click(within(reply).getByRole('button', { name: 'Copy message' })));
    expect(writeText).toHaveBeenLastCalledWith(answer);
    await act(async () =>
      fireEvent.click(within(screen.getByRole('article', { name: 'You' })).getByRole('button', { name: 'Copy message' })),
    );
    expect(writeText).toHaveBeenLastCalledWith('Show me a sum');

    fireEvent.change(within(list).getByRole('searchbox', { name: 'Search conversations' }), { target: { value: 'prints' } });
    await waitFor(() => expect(within(list).getByText('…console.log(sum); It prints 5.')).toBeTruthy());
  });
});
