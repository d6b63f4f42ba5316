import { act, cleanup, fireEvent, render as renderInStore, screen, waitFor, within, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningToolCall } from '@contract';
import { HostCallError } from '@contract';
import { createAppStore } from '../../stores/app-store';
import { AppStoreContext } from '../../stores/use-app-store';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import type { ToolResultBlock, ToolUseBlock } from '@contract';
import { cardStatus, RESULT_PREVIEW_CHARS } from './chat-model';
import { ToolCallCard } from './ToolCallCard';

afterEach(cleanup);

/** Renders inside a store fed by an empty fake host (rerenders keep it). */
function render(ui: ReactElement, options?: RenderOptions) {
  const store = createAppStore(fakeHost().transport, 'chat');
  const wrapper = ({ children }: { children: ReactNode }) => <AppStoreContext.Provider value={store}>{children}</AppStoreContext.Provider>;
  return renderInStore(ui, { ...options, wrapper });
}

const call: ToolUseBlock = {
  type: 'tool_use',
  id: 'tu1',
  name: 'Everything_demo__get-sum',
  input: { a: 2, b: 3 },
  serverId: 's1',
  serverName: 'Everything (demo)',
  toolName: 'get-sum',
};
const result = (extra: Partial<ToolResultBlock> = {}): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId: 'tu1',
  content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
  isError: false,
  outcome: 'done',
  ...extra,
});

describe('ToolCallCard', () => {
  it('names server and tool, shows the arguments, the status and a collapsible result', () => {
    render(<ToolCallCard call={call} result={result()} />);
    const card = screen.getByRole('article', { name: 'Tool call get-sum on Everything (demo)' });
    expect(within(card).getByRole('status').textContent).toBe('Done');
    expect(card.textContent).toContain('"a": 2');
    const details = card.querySelectorAll('details');
    expect(details[1].open).toBe(false);
    fireEvent.click(within(card).getByText('Result'));
    expect(card.textContent).toContain('The sum of 2 and 3 is 5.');
  });

  it('shows waiting, running with progress, denied and error', () => {
    const { rerender } = render(<ToolCallCard call={call} live={{ callId: 'c1', status: 'waiting-approval' }} />);
    expect(screen.getByRole('status').textContent).toBe('Waiting for approval');
    rerender(
      <ToolCallCard call={call} live={{ callId: 'c1', status: 'running', progress: { progress: 3, total: 10, message: 'step 3' } }} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Running…');
    expect(screen.getByRole('progressbar', { name: 'Progress' })).toBeTruthy();
    expect(screen.getByText('step 3')).toBeTruthy();
    rerender(
      <ToolCallCard
        call={call}

        result={result({ isError: true, outcome: 'denied', content: [{ type: 'text', text: 'Denied by the user' }] })}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Denied');
    rerender(
      <ToolCallCard
        call={call}

        result={result({ isError: true, outcome: 'error', content: [{ type: 'text', text: 'boom' }] })}
      />,
    );
    expect(screen.getByText('Result (error)')).toBeTruthy();
  });

  it('keeps a huge result whole for the user (behind "Show all") and says what the model got', () => {
    const big = 'z'.repeat(RESULT_PREVIEW_CHARS + 500);
    render(<ToolCallCard call={call} result={result({ content: [{ type: 'text', text: big }], modelLimitChars: 1000 })} />);
    expect(screen.getByText(/The model got the first 1,000 characters/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Show all/ }));
    expect(screen.getByText(big)).toBeTruthy();
  });

  it('derives the status: the stored outcome, the live one while running, cancelled when the turn ended without it', () => {
    expect(cardStatus(result(), undefined, true)).toEqual({ status: 'done' });
    expect(cardStatus(undefined, { callId: 'c', status: 'running', progress: { progress: 1 } }, true)).toEqual({
      status: 'running',
      progress: { progress: 1 },
    });
    expect(cardStatus(undefined, undefined, true)).toEqual({ status: 'pending' });
    expect(cardStatus(undefined, undefined, false)).toEqual({ status: 'cancelled' });
  });

  it('shows the arguments that ran when the user edited them, marked, with the model’s own behind an expander', () => {
    const { rerender } = render(<ToolCallCard call={call} live={{ callId: 'c1', status: 'running', editedArgs: { a: 2, b: 40 } }} />);
    const card = () => screen.getByRole('article', { name: 'Tool call get-sum on Everything (demo)' });
    const args = () =>
      within(card())
        .getByText(/^Arguments/)
        .closest('details')!;
    expect(args().querySelector(':scope > summary')!.textContent).toBe('Arguments — edited by you');
    expect(args().querySelector(':scope > pre')!.textContent).toContain('"b": 40');
    rerender(<ToolCallCard call={call} result={result({ editedArgs: { a: 2, b: 40 } })} />);
    expect(args().querySelector(':scope > pre')!.textContent).toContain('"b": 40');
    const original = within(card()).getByText('The model’s original arguments').closest('details')!;
    expect(original.open).toBe(false);
    expect(original.textContent).toContain('"b": 3');
    // Without an edit, the model's arguments are the ones that ran: no mark, no second copy.
    rerender(<ToolCallCard call={call} result={result()} />);
    expect(args().querySelector(':scope > summary')!.textContent).toBe('Arguments');
    expect(within(card()).queryByText('The model’s original arguments')).toBeNull();
  });

  it('follows a call that runs as a task (after a reload too, from the host’s running calls) and cancels it', async () => {
    const running: RunningToolCall = {
      callId: 'c1',
      serverId: 's1',
      serverName: 'Everything (demo)',
      tool: 'get-sum',
      origin: 'model',
      startedAt: '2026-01-01T00:00:00.000Z',
      chat: { conversationId: 'conv1', toolUseId: 'tu1' },
      task: { id: 't1', taskId: 'task-9', status: 'working', statusMessage: 'Gathering sources...' },
    };
    const host = fakeHost({
      tools: { running: [running] },
      replies: {
        cancelToolCall: () => {
          throw new HostCallError('invalid_input', 'The call already ended.');
        },
      },
    });
    await renderWithHost(<ToolCallCard call={call} conversationId="conv1" />, host);
    const card = screen.getByRole('article', { name: 'Tool call get-sum on Everything (demo)' });
    expect(card.dataset.status).toBe('running');
    expect(within(card).getByRole('status', { name: 'Task status' }).textContent).toBe('Task Working — Gathering sources...');
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(card.textContent).toContain('The call already ended.'));
    expect(host.of('cancelToolCall')).toEqual([{ callId: 'c1' }]);
    act(() =>
      host.emit({
        name: 'toolCallTask',
        payload: { callId: 'c1', chat: running.chat, task: { ...running.task!, status: 'input_required', statusMessage: 'Asking' } },
      }),
    );
    expect(within(card).getByRole('status', { name: 'Task status' }).textContent).toBe('Task Needs input — Asking');
  });

  it('shows the tool’s app beside its result, and says so clearly when the app cannot be shown', async () => {
    const host = fakeHost({
      replies: {
        openAppView: () => {
          throw new HostCallError('internal', 'Everything (demo) has no UI resource ui://x/app.html.');
        },
      },
    });
    await renderWithHost(
      <ToolCallCard
        call={call}

        conversationId="conv1"
        result={result({ app: { resourceUri: 'ui://x/app.html' }, structuredContent: { sum: 5 } })}
      />,
      host,
    );
    const app = screen.getByRole('region', { name: 'App of get-sum from Everything (demo)' });
    await waitFor(() => expect(within(app).getByRole('alert').textContent).toContain('has no UI resource ui://x/app.html'));
    expect(host.of('openAppView')).toEqual([
      { serverId: 's1', tool: 'get-sum', parentOrigin: window.location.origin, conversationId: 'conv1' },
    ]);
    fireEvent.click(within(app).getByRole('button', { name: 'Close app' }));
    expect(screen.getByRole('button', { name: 'Show app' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'App of get-sum from Everything (demo)' })).toBeNull();
  });
});
