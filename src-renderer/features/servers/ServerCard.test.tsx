import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerView } from '@contract';
import { HostCallError } from '@contract';
import { ServerCard, type ServerActions } from './ServerCard';
import { deferred, fakeActions, serverView } from './test-support/server-factories';

afterEach(cleanup);

function renderCard(server: ServerView, actions: ServerActions = fakeActions(), handlers = { onOpen: vi.fn(), onEdit: vi.fn() }) {
  render(
    <ul role="list">
      <ServerCard server={server} actions={actions} {...handlers} />
    </ul>,
  );
  return within(screen.getByRole('listitem', { name: server.config.name }));
}

const buttonNames = (card: ReturnType<typeof within>) =>
  card.getAllByRole('button').map((b: HTMLElement) => (b.classList.contains('icon-only') ? b.getAttribute('aria-label') : b.textContent));

describe('ServerCard', () => {
  it.each([
    ['stopped', 'Stopped', ['Start']],
    ['starting', 'Starting', ['Stop']],
    ['ready', 'Ready', ['Stop', 'Restart']],
    ['error', 'Error', ['Restart']],
    ['crashed', 'Crashed', ['Restart']],
  ] as const)('shows %s as "%s" with one primary action: %s', (status, word, run) => {
    const card = renderCard(serverView({}, { status, ...(status === 'error' || status === 'crashed' ? { reason: 'It failed' } : {}) }));
    expect(card.getByText(word).closest('[data-status]')?.getAttribute('data-status')).toBe(status);
    const failed = status === 'error' || status === 'crashed';
    // The row's actions come first; a failure's Copy sits with the output under the row.
    expect(buttonNames(card)).toEqual(['echo', ...run, 'Edit', 'Remove', ...(failed ? ['Copy'] : [])]);
    // The primary action is the one not styled as secondary.
    expect(card.getByRole('button', { name: run[0] }).className).not.toContain('secondary');
    expect(card.getByRole('switch', { name: 'Starts with Patchbay' })).toBeTruthy();
  });

  it('offers Stop beside Restart while a crashed server waits for its automatic restart', () => {
    const card = renderCard(
      serverView({}, { status: 'crashed', reason: 'exit', restart: { attempt: 1, of: 5, at: new Date().toISOString() } }),
    );
    expect(buttonNames(card)).toEqual(['echo', 'Restart', 'Stop', 'Edit', 'Remove', 'Copy']);
  });

  it('shows a failure as written: every line, scrollable, copyable whole with the last output', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const reason =
      'Server "echo" exited during startup (exit code 1).\nLast stderr lines:\n  Error: boom\n      at main (/srv/index.js:3:9)';
    const card = renderCard(serverView({}, { status: 'error', reason, lastStderr: ['Error: boom', '    at main (/srv/index.js:3:9)'] }));
    const output = card.getByLabelText('What went wrong with echo');
    expect(output.tagName).toBe('PRE');
    // The stack the host appended to the reason is the Last output below: shown (and copied) once.
    expect(output.textContent).toBe('Server "echo" exited during startup (exit code 1).');
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Copy what went wrong with echo' })));
    expect(writeText).toHaveBeenCalledWith(
      'Server "echo" exited during startup (exit code 1).\n\nLast output:\nError: boom\n    at main (/srv/index.js:3:9)',
    );
    expect(card.getByText('Copied')).toBeTruthy();
  });

  it('shows the runtime facts the host reported', () => {
    const since = new Date(Date.now() - 5 * 60_000).toISOString();
    const card = renderCard(
      serverView(
        {},
        {
          status: 'ready',
          since,
          reason: 'Initialized',
          serverInfo: { name: 'mcp-echo', version: '1.2.3' },
          protocolVersion: '2025-11-25',
          era: 'legacy',
          capabilities: ['tools', 'logging'],
          counts: { tools: 3, resources: 1, prompts: 0 },
        },
      ),
    );
    expect(card.getByText('Initialized')).toBeTruthy();
    expect(card.getByText('mcp-echo 1.2.3')).toBeTruthy();
    // The protocol in plain words, the version's meaning on hover; capabilities are on the detail page.
    const protocol = card.getByText('Current protocol (2025-11-25)');
    expect(protocol.getAttribute('title')).toMatch(/^MCP 2025-11-25: a session opened with initialize/);
    expect(card.queryByText(/legacy/)).toBeNull();
    expect(card.queryByText('tools, logging')).toBeNull();
    expect(card.getByText('3 tools · 1 resource · 0 prompts')).toBeTruthy();
    const time = card.getByText('5 minutes ago');
    expect(time.getAttribute('dateTime')).toBe(since);
    expect(time.getAttribute('title')).toBe(new Date(since).toLocaleString());
  });

  it('shows progress and restart attempts while starting, and last output once crashed', () => {
    renderCard(
      serverView(
        { id: 'a', name: 'a' },
        { status: 'starting', detail: 'installing…', restart: { attempt: 2, of: 5, at: new Date().toISOString() } },
      ),
    );
    const starting = within(screen.getByRole('listitem', { name: 'a' }));
    expect(starting.getByText('installing…')).toBeTruthy();
    expect(starting.getByText(/Attempt 2 of 5/)).toBeTruthy();
    cleanup();
    const crashed = renderCard(
      serverView({}, { status: 'crashed', reason: 'It crashed', exit: { code: 7, signal: null }, lastStderr: ['boom', 'at line 3'] }),
    );
    expect(crashed.getByText('exit code 7')).toBeTruthy();
    expect(crashed.getByText('Last output').tagName).toBe('SUMMARY');
    expect(crashed.getByText(/boom/).textContent).toBe('boom\nat line 3');
  });

  it('disables a button while its call is in flight and shows a failure naming the server', async () => {
    const actions = fakeActions();
    const call = deferred();
    actions.start.mockReturnValue(call.promise);
    const card = renderCard(serverView({ name: 'flaky' }), actions);
    fireEvent.click(card.getByRole('button', { name: 'Start' }));
    expect(actions.start).toHaveBeenCalledWith('srv-1');
    expect((card.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => call.reject(new HostCallError('internal', 'spawn ENOENT')));
    expect((card.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(false);
    expect(card.getByRole('alert').textContent).toContain('Could not start flaky: spawn ENOENT');
  });

  it('asks before removing, and removes only on confirmation', async () => {
    const actions = fakeActions();
    const card = renderCard(serverView({ name: 'memory' }), actions);
    card.getByRole('button', { name: 'Remove' }).focus();
    fireEvent.click(card.getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove memory?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(actions.remove).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(card.getByRole('button', { name: 'Remove' }))); // Radix returns focus on a timer
    fireEvent.click(card.getByRole('button', { name: 'Remove' }));
    await act(async () => fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' })));
    expect(actions.remove).toHaveBeenCalledWith('srv-1');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('toggles enabled, and opens detail and edit through callbacks', async () => {
    const actions = fakeActions();
    const handlers = { onOpen: vi.fn(), onEdit: vi.fn() };
    const card = renderCard(serverView({ enabled: true }), actions, handlers);
    await act(async () => fireEvent.click(card.getByRole('switch', { name: 'Starts with Patchbay' })));
    expect(actions.setEnabled).toHaveBeenCalledWith('srv-1', false);
    fireEvent.click(card.getByRole('button', { name: 'echo' }));
    expect(handlers.onOpen).toHaveBeenCalledWith('srv-1');
    fireEvent.click(card.getByRole('button', { name: 'Edit' }));
    expect(handlers.onEdit).toHaveBeenCalledWith('srv-1');
  });
});
