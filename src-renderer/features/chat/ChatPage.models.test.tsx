import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeHost } from '../../test-support/fake-host';
import { anthropicProvider, localProvider } from '../providers/test-support/provider-factories';
import { conversation, KEY_SET, NO_KEY, renderChatPage as renderPage, setUpChatPageTests, text } from './test-support/chat-page';
import { choose } from '../../test-support/choose';

setUpChatPageTests();

describe('ChatPage: the model', () => {
  it('the Model combobox groups every provider’s models; picking one sets the conversation’s model', async () => {
    const host = fakeHost({
      chat: { conversations: [conversation({ providerId: 'anthropic', model: 'claude-sonnet-5-5' })], llm: KEY_SET },
      providers: { providers: [anthropicProvider({ apiKey: KEY_SET.apiKey }), localProvider()] },
      replies: {
        listMessages: () => ({
          messages: [{ ...text(1, 1, 'assistant', 'Hi'), model: 'qwen2.5:7b', providerId: 'p-ollama' }],
          hasMore: false,
        }),
        setConversationModel: (input: { providerId: string; model: string }) => conversation(input),
      },
    });
    await renderPage(host);
    const picker = screen.getByRole('combobox', { name: 'Model' });
    expect(picker.textContent).toBe('Claude Sonnet 5.5');
    fireEvent.keyDown(picker, { key: 'Enter' });
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('group')
        .map((g) => [
          g.firstElementChild?.textContent,
          within(g)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ]),
    ).toEqual([
      ['Anthropic', ['Claude Sonnet 5.5', 'Claude Opus 5.5']],
      ['Ollama', ['llama3.1:8b', 'qwen2.5:7b']],
    ]);
    // An answer from another provider is labelled by its model.
    expect(within(screen.getByRole('log', { name: 'Messages' })).getByRole('article', { name: 'qwen2.5:7b' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('option', { name: 'llama3.1:8b' })));
    expect(host.of('setConversationModel')).toEqual([{ id: 'c1', providerId: 'p-ollama', model: 'llama3.1:8b' }]);
    expect(screen.getByRole('combobox', { name: 'Model' }).textContent).toBe('llama3.1:8b');
  });

  it('a conversation’s model its provider does not list says so in the Model combobox', async () => {
    const host = fakeHost({
      chat: { conversations: [conversation({ providerId: 'p-ollama', model: 'llama2:7b' })], llm: KEY_SET },
      providers: { providers: [anthropicProvider({ apiKey: KEY_SET.apiKey }), localProvider()] },
      replies: { listMessages: () => ({ messages: [text(1, 1, 'user', 'Hi')], hasMore: false }) },
    });
    await renderPage(host);
    const picker = screen.getByRole('combobox', { name: 'Model' });
    expect(picker.textContent).toBe('llama2:7b (not listed)');
    expect(picker.getAttribute('title')).toBe('Ollama › llama2:7b: Ollama does not list it');
  });

  it('needs no key for a local model, asks for one for a remote provider without it, and offers "Continue without tools"', async () => {
    const failed = conversation({
      providerId: 'p-ollama',
      model: 'gemma:2b',
      lastError: {
        kind: 'tools-unsupported',
        message: 'gemma:2b on Ollama cannot use tools.',
        retryable: true,
        at: '2026-01-01T00:00:00Z',
      },
    });
    const host = fakeHost({
      chat: { conversations: [failed], llm: NO_KEY },
      providers: { providers: [anthropicProvider(), localProvider()] },
      replies: { listMessages: () => ({ messages: [text(1, 1, 'user', 'Hi')], hasMore: false }) },
    });
    await renderPage(host);
    expect(screen.queryByRole('note', { name: 'API key needed' })).toBeNull();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('cannot use tools');
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Continue without tools' })));
    expect(host.of('retryTurn')).toEqual([{ conversationId: 'c1', withoutTools: true }]);
    cleanup();

    const remote = localProvider({ id: 'p-router', name: 'OpenRouter', keyRequired: true });
    const other = fakeHost({
      chat: { conversations: [conversation({ providerId: 'p-router', model: 'x' })], llm: KEY_SET },
      providers: { providers: [anthropicProvider({ apiKey: KEY_SET.apiKey }), remote] },
      replies: { listMessages: () => ({ messages: [], hasMore: false }) },
    });
    await renderPage(other);
    expect(screen.getByRole('note', { name: 'API key needed' }).textContent).toMatch(/Add an API key for OpenRouter/);
  });

  it('picking a model with no conversation open starts one with it, keeping what was typed; Send goes to that one', async () => {
    const host = fakeHost({
      chat: { conversations: [], llm: KEY_SET },
      providers: { providers: [anthropicProvider({ apiKey: KEY_SET.apiKey }), localProvider()] },
      replies: {
        createConversation: () => conversation({ id: 'new', title: 'New conversation' }),
        setConversationModel: (input: { id: string; providerId: string; model: string }) => conversation(input),
        listMessages: () => ({ messages: [], hasMore: false }),
        sendMessage: ({ text: typed }: { text: string }) => ({ ...text(100, 1, 'user', typed), conversationId: 'new' }),
      },
    });
    await renderPage(host);
    const composer = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    fireEvent.change(composer, { target: { value: 'Hello local' } });
    await choose(screen.getByRole('combobox', { name: 'Model' }), 'llama3.1:8b');
    expect(host.of('setConversationModel')).toEqual([{ id: 'new', providerId: 'p-ollama', model: 'llama3.1:8b' }]);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('Hello local');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(host.of('sendMessage')).toEqual([{ conversationId: 'new', text: 'Hello local' }]);
    expect(host.of('createConversation')).toHaveLength(1);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
  });
});
