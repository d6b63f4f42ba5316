import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatTokens, type ContextMeasure } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { serverView } from '../servers/test-support/server-factories';
import { ChatPage } from '../chat/ChatPage';
import { localSkill, serverSkill, skillList } from '../skills/test-support/skill-factories';

afterEach(cleanup);
beforeAll(() => {
  // jsdom lays nothing out: the popover measures its trigger.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const measure = (extra: Partial<ContextMeasure> = {}): ContextMeasure => ({
  total: 12_400,
  tools: 9_000,
  toolCount: 23,
  system: 1_400,
  attachments: 0,
  history: 2_000,
  servers: [
    { serverId: 's1', serverName: 'everything', tools: 19, tokens: 4_100, instructionTokens: 120 },
    { serverId: 's2', serverName: 'memory', tools: 4, tokens: 4_900 },
  ],
  ...extra,
});

function host(reply: () => ContextMeasure) {
  return fakeHost({
    servers: [serverView({ id: 's1', name: 'everything' })],
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
    replies: { listMessages: () => ({ messages: [], hasMore: false }), measureContext: reply },
  });
}

describe('the context meter', () => {
  it(
    'shows what the next request carries, its breakdown and tools by server on click, and counts again when the draft grows',
    { timeout: 15_000 },
    async () => {
      let next = measure();
      const h = host(() => next);
      await renderWithHost(<ChatPage />, h, 'chat');
      const meter = await screen.findByRole('button', { name: '≈ 12.4k tokens' }, { timeout: 3_000 });
      expect(h.of('measureContext')).toEqual([{ conversationId: 'c1', draftChars: 0, attachmentIds: [] }]);

      fireEvent.click(meter);
      const breakdown = await screen.findByRole('dialog', { name: 'Context breakdown' });
      expect(breakdown.textContent).toContain('Tools (23)≈ 9k');
      expect(breakdown.textContent).toContain('System prompt≈ 1.4k');
      expect(breakdown.textContent).toContain('History≈ 2k');
      expect(
        within(within(breakdown).getByRole('list', { name: 'Tool tokens by server' }))
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['everything19 tools, ≈ 4.1k, instructions ≈ 120', 'memory4 tools, ≈ 4.9k']);
      fireEvent.keyDown(breakdown, { key: 'Escape' });

      next = measure({ total: 12_900, history: 2_500 });
      await act(async () => fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'x'.repeat(2_000) } }));
      await screen.findByRole('button', { name: '≈ 12.9k tokens' }, { timeout: 3_000 });
      expect(h.of('measureContext').at(-1)).toMatchObject({ conversationId: 'c1', draftChars: 2_000 });
    },
  );

  it('under tool search says what it keeps back, by server, instead of "no server is Ready"', async () => {
    const h = host(() =>
      measure({
        total: 3_000,
        tools: 132,
        toolCount: 1,
        servers: [],
        heldBack: {
          tools: 242,
          tokens: 19_000,
          servers: [
            { serverId: 's1', serverName: 'everything', tools: 230, tokens: 18_000 },
            { serverId: 's2', serverName: 'memory', tools: 12, tokens: 1_000 },
          ],
        },
      }),
    );
    await renderWithHost(<ChatPage />, h, 'chat');
    fireEvent.click(await screen.findByRole('button', { name: '≈ 3k tokens' }, { timeout: 3_000 }));
    const breakdown = await screen.findByRole('dialog', { name: 'Context breakdown' });
    expect(breakdown.textContent).toContain('Tools sent (1, with the search tool)≈ 132');
    expect(breakdown.textContent).toContain('Tool search keeps back 242 tools of 2 servers (≈ 19k tokens not sent)');
    expect(breakdown.textContent).not.toContain('No tools are offered');
    expect(
      within(within(breakdown).getByRole('list', { name: 'Tool tokens by server' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['everythingnone sent · 230 tools kept back by search', 'memorynone sent · 12 tools kept back by search']);
  });

  it('with only skills sent, says the load_skill tool is sent, not "no tools are offered"', async () => {
    const h = host(() => measure({ total: 2_000, tools: 0, toolCount: 0, servers: [], skills: { offered: 1, tokens: 150 } }));
    h.replies.listSkills = () => skillList([localSkill('notes', { loadTokens: 200 })]);
    await renderWithHost(<ChatPage />, h, 'chat');
    fireEvent.click(await screen.findByRole('button', { name: '≈ 2k tokens' }, { timeout: 3_000 }));
    const breakdown = await screen.findByRole('dialog', { name: 'Context breakdown' });
    expect(breakdown.textContent).toContain('Skills (1 offered)≈ 150');
    expect(breakdown.textContent).toContain(
      'No server’s tools are sent; only the load_skill tool, which offers 1 skill (counted under Skills above).',
    );
    expect(breakdown.textContent).not.toContain('No tools are offered');
  });

  it('counts the skills offered on their own line and says what loading one would add', async () => {
    const h = host(() => measure({ skills: { offered: 2, tokens: 310 } }));
    h.replies.listSkills = () =>
      skillList([
        localSkill('notes', { loadTokens: 200 }),
        serverSkill('d', 'Docs', 'pdf-processing', { loadTokens: 4_200 }),
        serverSkill('d', 'Docs', 'off', { enabled: false }),
        serverSkill('d', 'Docs', 'tampered', { problem: 'digest mismatch' }),
      ]);
    await renderWithHost(<ChatPage />, h, 'chat');
    fireEvent.click(await screen.findByRole('button', { name: '≈ 12.4k tokens' }, { timeout: 3_000 }));
    const breakdown = await screen.findByRole('dialog', { name: 'Context breakdown' });
    expect(breakdown.textContent).toContain('Skills (2 offered)≈ 310');
    // Only skills the model is offered, the costliest first.
    const loads = await within(breakdown).findByRole('list', { name: 'Loading a skill would add' });
    expect(
      within(loads)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['pdf-processing≈ 4.2k · Docs', 'notes≈ 200 · local folder']);
  });

  it('says when the host could not count', async () => {
    const h = host(() => {
      throw new Error('No conversation with id c1');
    });
    await renderWithHost(<ChatPage />, h, 'chat');
    await waitFor(() => expect(screen.getByText('Tokens not counted').getAttribute('title')).toContain('No conversation with id c1'));
  });
});

describe('formatTokens', () => {
  it('reads as people say token counts', () => {
    expect([0, 850, 4_100, 12_449, 128_000, 1_234_567].map(formatTokens)).toEqual(['0', '850', '4.1k', '12.4k', '128k', '1.2M']);
  });
});
