import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerView } from '@contract';
import type { Route } from '../../routing/routes';
import { renderWithHost } from '../../test-support/fake-host';
import { serverView } from '../servers/test-support/server-factories';
import { LogsPage } from './LogsPage';
import { fakeLogHost, logEntry } from './test-support/log-host';
import { choose } from '../../test-support/choose';

const writeText = vi.fn(async (_text: string) => undefined);

beforeEach(() => {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  URL.createObjectURL = vi.fn(() => 'blob:log');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  writeText.mockClear();
  vi.useRealTimers();
});

/** The page opened on the first server's logs (the address a server's Logs link gives), or on Logs itself. */
async function renderPage(
  servers: ServerView[],
  entries = [logEntry(1), logEntry(2), logEntry(3, { text: 'needle here' })],
  route: Route = { page: 'logs', serverId: servers[0]?.config.id },
) {
  const host = fakeLogHost(servers, entries);
  await renderWithHost(<LogsPage />, host, route); // the snapshot, then the first query
  return host;
}

const list = (name = 'Output entries') => screen.getByRole('list', { name });
const rowTexts = (name?: string) =>
  within(list(name))
    .getAllByRole('listitem')
    .map((row) => row.textContent ?? '');

describe('LogsPage', () => {
  it('says when there are no servers', async () => {
    await renderPage([]);
    expect(screen.getByRole('heading', { name: 'Logs' })).toBeTruthy();
    expect(screen.getByText(/No servers yet/)).toBeTruthy();
  });

  it('shows a server’s streams as tabs, its history, and live entries as they arrive', async () => {
    const host = await renderPage([serverView({ id: 'srv-1', name: 'echo' }, { status: 'ready' })]);
    for (const name of ['Output', 'Messages', 'Protocol', 'Host']) expect(screen.getByRole('tab', { name })).toBeTruthy();
    expect(host.of('queryLogs')[0]).toEqual({ serverId: 'srv-1', stream: 'output', limit: 500 });
    expect(rowTexts()).toHaveLength(3);
    expect(rowTexts()[2]).toContain('needle here');

    act(() =>
      host.emit({
        name: 'logAppended',
        payload: { entries: [logEntry(3, { text: 'needle here' }), logEntry(4, { text: 'fresh line' })], skipped: [] },
      }),
    );
    expect(rowTexts()).toHaveLength(4);
    expect(rowTexts()[3]).toContain('fresh line');
  });

  it('narrows the list as soon as the filter changes, then asks the host', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const host = await renderPage([serverView({ id: 'srv-1' }, { status: 'ready' })]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter' }), { target: { value: 'NEEDLE' } });
    expect(rowTexts()).toEqual([expect.stringContaining('needle here')]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter' }), { target: { value: 'nothing like it' } });
    expect(screen.getByText('No entries match the filter.')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(300));
    expect(host.of('queryLogs').at(-1)).toEqual({ serverId: 'srv-1', stream: 'output', text: 'nothing like it', limit: 500 });
  });

  it('pauses (counting what arrives), copies and exports the view', async () => {
    const host = await renderPage([serverView({ id: 'srv-1', name: 'my server' }, { status: 'ready' })]);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => host.emit({ name: 'logAppended', payload: { entries: [logEntry(9), logEntry(10)], skipped: [] } }));
    expect(rowTexts()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Follow (2 new)' })).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/INFO {6}line 1\n.*line 2\n.*needle here$/));
    expect(screen.getByText('Copied 3 entries')).toBeTruthy();

    host.replies.exportLogs = () => ({ jsonl: '{"seq":1}\n', count: 1, truncated: false });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Export JSONL' })));
    expect(host.of('exportLogs')).toEqual([{ serverId: 'srv-1', stream: 'output' }]);
    expect(URL.createObjectURL).toHaveBeenCalled();
    expect(screen.getByText('Exported 1 entries')).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Follow (2 new)' })));
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('shows protocol columns and the full message of a clicked row, pretty-printed', async () => {
    const entries = [
      logEntry(1, {
        stream: 'protocol',
        direction: 'out',
        kind: 'request',
        method: 'initialize',
        rpcId: 0,
        bytes: 210,
        text: '→ initialize #0 (210 B) {"protocolVersion":"2025-11-25"}',
        hasDetail: true,
      }),
      logEntry(2, {
        stream: 'protocol',
        direction: 'in',
        kind: 'response',
        method: 'initialize',
        rpcId: 0,
        bytes: 1536,
        latencyMs: 12,
        text: '← result of initialize #0 (1.5 KB in 12 ms) {"protocolVersion":"2025-11-25"}',
        hasDetail: true,
      }),
    ];
    const host = await renderPage([serverView({ id: 'srv-1' }, { status: 'ready' })], entries);
    host.replies.getLogEntry = () => ({
      ...entries[1],
      detail: '{\n  "result": {\n    "protocolVersion": "2025-11-25"\n  }\n}',
      truncated: false,
    });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Protocol' }));
    await act(async () => undefined);
    const rows = rowTexts('Protocol entries');
    expect(rows[1]).toContain('result initialize#01.5\u00a0KB12 ms{"protocolVersion":"2025-11-25"}');
    expect(screen.getByRole('searchbox', { name: 'Method' })).toBeTruthy();

    await act(async () => fireEvent.click(within(list('Protocol entries')).getAllByRole('button')[1]));
    const detail = within(screen.getByRole('region', { name: 'Entry detail' }));
    expect(detail.getByText('12 ms')).toBeTruthy();
    expect(detail.getByText(/"protocolVersion": "2025-11-25"/)).toBeTruthy();
    expect(host.of('getLogEntry')).toEqual([{ seq: 2 }]);
  });

  it('sets the server log level from the Messages tab, and says how it was sent', async () => {
    const host = await renderPage([serverView({ id: 'srv-1' }, { status: 'ready', era: 'legacy', capabilities: ['logging', 'tools'] })]);
    host.replies.setServerLogLevel = () => ({ level: 'warning', delivery: 'logging/setLevel' });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Messages' }));
    await act(async () => undefined);
    expect(screen.getByText('Sent to the server with logging/setLevel.')).toBeTruthy();
    await choose(screen.getByRole('combobox', { name: 'Server log level' }), 'warning');
    expect(host.of('setServerLogLevel')).toEqual([{ id: 'srv-1', level: 'warning' }]);
    expect(screen.getByText('Level warning sent with logging/setLevel.')).toBeTruthy();
  });

  it('for a crashed server: why, its stack trace once (the end of Output), and Copy diagnostics', async () => {
    const stack = ['Error: boom', '    at main (/srv/index.js:3:9)'];
    const runtime = {
      status: 'crashed' as const,
      reason: `Server "echo" exited during startup (exit code 3).\nLast stderr lines:\n${stack.map((l) => `  ${l}`).join('\n')}`,
      lastStderr: stack,
    };
    const host = await renderPage(
      [serverView({ id: 'srv-1', name: 'echo' }, runtime)],
      [logEntry(1, { text: 'starting', level: 'info' }), logEntry(2, { text: stack.join('\n'), level: 'error' })],
    );
    host.replies.getServerDiagnostics = () => ({ text: 'diagnostics text', lastStderr: stack });
    const panel = within(screen.getByRole('region', { name: 'echo diagnostics' }));
    expect(panel.getByText(/exited during startup \(exit code 3\)\.$/)).toBeTruthy();
    expect(panel.getByText(/at the end of Output, below/)).toBeTruthy();
    // The stack shows once on the screen: in the Output stream, not again in the panel.
    expect(document.body.textContent?.split('at main (/srv/index.js:3:9)')).toHaveLength(2);
    expect(rowTexts().at(-1)).toContain('at main (/srv/index.js:3:9)');
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Copy diagnostics' })));
    expect(writeText).toHaveBeenCalledWith('diagnostics text');
    expect(panel.getByText('Diagnostics copied')).toBeTruthy();
    // From another stream, the panel points back to Output.
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Host' }));
    await act(async () => undefined);
    fireEvent.click(panel.getByRole('button', { name: 'Show Output' }));
    await act(async () => undefined);
    expect(screen.getByRole('tab', { name: 'Output' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens on All servers, not on the first server', async () => {
    const servers = [serverView({ id: 'srv-1', name: 'one' }), serverView({ id: 'srv-2', name: 'two' })];
    const host = await renderPage(servers, [logEntry(1), logEntry(2, { serverId: 'srv-2', text: 'from two' })], { page: 'logs' });
    expect(screen.getByRole('combobox', { name: 'Server' }).textContent).toContain('All servers');
    expect(host.of('queryLogs')[0]).toEqual({ stream: 'output', limit: 500 });
    expect(rowTexts()).toEqual([expect.stringMatching(/^.*one/), expect.stringMatching(/twoinfofrom two/)]);
  });

  it('keeps the open tab when another server is picked', async () => {
    const entries = [logEntry(1), logEntry(2, { serverId: 'srv-2', stream: 'host', text: 'spawned two' })];
    const host = await renderPage([serverView({ id: 'srv-1', name: 'one' }), serverView({ id: 'srv-2', name: 'two' })], entries);
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Host' }));
    await act(async () => undefined);
    await choose(screen.getByRole('combobox', { name: 'Server' }), 'two');
    expect(screen.getByRole('tab', { name: 'Host' }).getAttribute('aria-selected')).toBe('true');
    expect(host.of('queryLogs').at(-1)).toEqual({ serverId: 'srv-2', stream: 'host', limit: 500 });
    expect(rowTexts('Host entries')).toEqual([expect.stringContaining('spawned two')]);
  });

  it('All servers: one stream of every server merged by time, each row naming its server, live too', async () => {
    const entries = [
      logEntry(1, { text: 'from one' }),
      logEntry(2, { serverId: 'srv-2', text: 'from two' }),
      logEntry(3, { text: 'one again' }),
    ];
    const host = await renderPage([serverView({ id: 'srv-1', name: 'one' }), serverView({ id: 'srv-2', name: 'two' })], entries);
    await choose(screen.getByRole('combobox', { name: 'Server' }), 'All servers');
    expect(host.of('queryLogs').at(-1)).toEqual({ stream: 'output', limit: 500 });
    expect(rowTexts()).toEqual([
      expect.stringMatching(/oneinfofrom one/),
      expect.stringMatching(/twoinfofrom two/),
      expect.stringMatching(/oneinfoone again/),
    ]);
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    act(() =>
      host.emit({
        name: 'logAppended',
        payload: { entries: [logEntry(5, { serverId: 'srv-2', text: 'later two' }), logEntry(4, { text: 'later one' })], skipped: [] },
      }),
    );
    expect(rowTexts().slice(3)).toEqual([expect.stringMatching(/oneinfolater one/), expect.stringMatching(/twoinfolater two/)]);
  });

  it('shows what the host found inside full messages, though the row’s text does not have it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const host = await renderPage([serverView({ id: 'srv-1' }, { status: 'ready' })]);
    host.replies.queryLogs = (input: { text?: string }) => ({
      entries: input.text ? [logEntry(2, { text: '← result of tools/call #2 (2 KB) {"content":[…' })] : [logEntry(1), logEntry(2)],
      hasMore: false,
    });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter' }), { target: { value: 'Echo: Hello' } });
    await act(async () => vi.advanceTimersByTimeAsync(300));
    expect(host.of('queryLogs').at(-1)).toMatchObject({ text: 'Echo: Hello' });
    expect(rowTexts()).toEqual([expect.stringContaining('result of tools/call #2')]);
  });

  it('saves retention settings', async () => {
    const host = await renderPage([serverView({ id: 'srv-1' })]);
    host.replies.updateLogSettings = (patch: object) => ({ maxEntriesPerStream: 20_000, maxTotalMB: 100, maxAgeDays: 14, ...patch });
    fireEvent.change(screen.getByLabelText('Days kept'), { target: { value: '3' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(host.of('updateLogSettings')).toEqual([{ maxEntriesPerStream: 20_000, maxTotalMB: 100, maxAgeDays: 3 }]);
    expect(screen.getByText('Saved')).toBeTruthy();
  });
});
