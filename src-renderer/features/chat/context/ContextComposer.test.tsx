import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AttachmentView, PromptResultView } from '@contract';
import { fakeHost, renderWithHost } from '../../../test-support/fake-host';
import { contentRuntime, sizeResourceLists } from '../../resources/test-support/resource-factories';
import { serverView } from '../../servers/test-support/server-factories';
import { ChatPage } from '../ChatPage';

afterEach(cleanup);
let restore: () => void = () => undefined;
beforeAll(() => (restore = sizeResourceLists()));
afterAll(() => restore());

const lab = serverView({ id: 'srv-1', name: 'lab' }, contentRuntime());
const attachment = (extra: Partial<AttachmentView> = {}): AttachmentView => ({
  attachmentId: 'att-1',
  serverId: 'srv-1',
  serverName: 'lab',
  uri: 'lab://docs/readme.md',
  name: 'readme.md',
  kind: 'text',
  chars: 1_500,
  bytes: 1_500,
  ...extra,
});
const greeting: PromptResultView = {
  useId: 'use-1',
  serverId: 'srv-1',
  serverName: 'lab',
  name: 'greet',
  arguments: { name: 'Ada' },
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }],
  chars: 17,
};

function host(settings = {}, attached = attachment()) {
  return fakeHost({
    servers: [lab],
    settings,
    chat: {
      conversations: [
        {
          id: 'c1',
          title: 'Notes',
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
          messageCount: 0,
          serverIds: null,
          turn: 'idle',
        },
      ],
    },
    replies: {
      listMessages: () => ({ messages: [], hasMore: false }),
      listPrompts: () => ({
        prompts: [
          { serverId: 'srv-1', serverName: 'lab', name: 'greet', arguments: [{ name: 'name', required: true }] },
          { serverId: 'srv-1', serverName: 'lab', name: 'team', arguments: [] },
        ],
        notes: [],
      }),
      listResources: () => ({
        items: [{ serverId: 'srv-1', serverName: 'lab', uri: 'lab://docs/readme.md', name: 'readme.md' }],
        offset: 0,
        total: 1,
        unfiltered: 1,
        notes: [],
      }),
      listResourceTemplates: () => ({ templates: [], notes: [] }),
      attachResource: () => attached,
      getPrompt: () => greeting,
      completeArgument: () => ({ values: [] }),
      sendMessage: (input: { conversationId: string }) => ({
        id: 9,
        conversationId: input.conversationId,
        seq: 1,
        role: 'user',
        content: [],
        status: 'complete',
        createdAt: '2026-01-01T00:00:00Z',
      }),
    },
  });
}

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
const message = () => screen.getByRole('textbox', { name: 'Message' });

describe('the message box with attachments and prompts', () => {
  it('lists the prompts after /, asks for the chosen one’s arguments, and sends its use with the message', async () => {
    const h = host();
    await renderWithHost(<ChatPage />, h, 'chat');
    await settle();
    fireEvent.change(message(), { target: { value: '/gr' } });
    const menu = screen.getByRole('listbox', { name: 'Prompts' });
    expect(
      within(menu)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['lab: greet']);
    expect(message().getAttribute('aria-activedescendant')).toBe(within(menu).getByRole('option').id);
    fireEvent.keyDown(message(), { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: 'Prompt lab: greet' }); // a chunk of its own, loaded on first use
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'name' }), { target: { value: 'Ada' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Use prompt' })));
    expect(h.of('getPrompt')).toEqual([{ serverId: 'srv-1', name: 'greet', arguments: { name: 'Ada' }, purpose: 'chat' }]);
    expect(screen.getByRole('group', { name: 'Attached to this message' }).textContent).toContain('greet');
    expect(message()).toHaveProperty('value', '');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(h.of('sendMessage')).toEqual([{ conversationId: 'c1', text: '', promptUseId: 'use-1' }]);
    expect(screen.queryByRole('group', { name: 'Attached to this message' })).toBeNull();
  });

  it('attaches from the picker, shows the budget in use, and blocks Send over the budget', async () => {
    const h = host({ attachmentBudgetChars: 1_000 });
    await renderWithHost(<ChatPage />, h, 'chat');
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Attach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Attach resources' }); // a chunk of its own, loaded on first use
    await settle();
    expect(within(dialog).getByRole('searchbox', { name: 'Search resources' })).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'readme.md' })));
    expect(h.of('attachResource')).toEqual([{ serverId: 'srv-1', uri: 'lab://docs/readme.md' }]);
    expect(screen.queryByRole('dialog', { name: 'Attach resources' })).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Attachments' })).getByText('readme.md')).toBeTruthy();
    expect(screen.getByText(/^Attachments: 1\.5 KB of 1\.0 KB/)).toBeTruthy();
    fireEvent.change(message(), { target: { value: 'Summarize' } });
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Remove readme.md' }));
    expect(h.of('detachResource')).toEqual([{ attachmentId: 'att-1' }]);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', false);
  });

  it('a flagged attachment says so on its chip, with the matched text', async () => {
    const flags = [{ kind: 'instruction' as const, rule: 'ignore-instructions', match: 'Ignore all previous instructions' }];
    await renderWithHost(<ChatPage />, host({}, attachment({ flags })), 'chat');
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Attach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Attach resources' });
    await settle();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'readme.md' })));
    const chip = within(screen.getByRole('list', { name: 'Attachments' })).getByRole('listitem');
    expect(chip.textContent).toContain('Flagged: Ignore all previous instructions');
  });
});
