import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerView } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ServersPage } from './ServersPage';
import { serverView } from './test-support/server-factories';
import { choose } from '../../test-support/choose';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The fake host, answering every call with the first server (what add/start/stop return). */
async function renderPage(servers: ServerView[] = []) {
  // Every action answers with the server; the snapshot and the Overview's meter are the fake host's own.
  const ownAnswer = (method: string) => method === 'getSnapshot' || method === 'measureContext';
  const host = fakeHost({ servers, reply: (method) => (ownAnswer(method) ? undefined : { ok: true, value: servers[0] }) });
  await renderWithHost(<ServersPage />, host, 'servers'); // the snapshot
  return host;
}

describe('ServersPage', () => {
  it('says when there are none, adds presets in one click, and lists servers as the host reports them', async () => {
    const host = await renderPage();
    expect(screen.getByRole('heading', { name: 'Servers' })).toBeTruthy();
    expect(screen.getByText(/No servers yet/)).toBeTruthy();
    const quickAdd = within(screen.getByRole('group', { name: 'Quick add' }));
    await act(async () => fireEvent.click(quickAdd.getByRole('button', { name: 'Filesystem' })));
    expect(host.calls.at(-1)).toEqual({ method: 'addPresetServer', input: { preset: 'filesystem' } });

    act(() => host.emit({ name: 'serverUpdated', payload: serverView({ id: 'fs', name: 'Filesystem' }, { status: 'starting' }) }));
    const card = within(screen.getByRole('listitem', { name: 'Filesystem' }));
    expect(card.getByText('Starting')).toBeTruthy();
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Stop' })));
    expect(host.calls.at(-1)).toEqual({ method: 'stopServer', input: { id: 'fs' } });
  });

  it('adds and edits through the form dialog', async () => {
    const host = await renderPage([serverView({ id: 'e1', name: 'echo' })]);
    fireEvent.click(screen.getByRole('button', { name: 'Add server' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'new' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'node' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(host.calls.at(-1)).toMatchObject({ method: 'addServer', input: { name: 'new', command: 'node' } });
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(within(screen.getByRole('listitem', { name: 'echo' })).getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('echo');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(host.calls.at(-1)).toMatchObject({ method: 'updateServer', input: { id: 'e1', server: { name: 'echo', args: ['echo.mjs'] } } });
  });

  it('wires Sign in and Sign out of a remote server to the host, and shows its URL and headers in the detail', async () => {
    const remote = serverView(
      {
        id: 'r1',
        name: 'linear',
        transport: 'http',
        command: '',
        args: [],
        url: 'https://mcp.linear.app/mcp',
        headers: [{ key: 'Authorization', secret: true }],
      },
      { status: 'ready', auth: { status: 'expired' } },
    );
    const host = await renderPage([remote]);
    vi.spyOn(window, 'open').mockReturnValue(null);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(host.calls.at(-1)).toEqual({ method: 'signIn', input: { id: 'r1' } });
    act(() =>
      host.emit({
        name: 'serverUpdated',
        payload: { ...remote, runtime: { ...remote.runtime, auth: { status: 'signed-in', account: 'ada' } } },
      }),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out' })));
    expect(host.calls.at(-1)).toEqual({ method: 'signOut', input: { id: 'r1' } });

    fireEvent.click(screen.getByRole('button', { name: 'linear' }));
    expect(screen.getByText('https://mcp.linear.app/mcp')).toBeTruthy();
    expect(screen.getByText('Authorization: •••••• (secret)')).toBeTruthy();
    expect(screen.queryByText('Command line')).toBeNull();
  });

  it('opens the detail from the name, with honest tabs and a way back', async () => {
    await renderPage([serverView({ name: 'gh', env: [{ key: 'GITHUB_TOKEN', secret: true }], args: ['-y', 'with space'] })]);
    fireEvent.click(screen.getByRole('button', { name: 'gh' }));
    expect(screen.getByRole('heading', { name: 'gh' })).toBeTruthy();
    expect(screen.getByText('node -y "with space"')).toBeTruthy();
    expect(screen.getByText('GITHUB_TOKEN=•••••• (secret)')).toBeTruthy();
    const tools = screen.getByRole('tab', { name: /^Tools\b/ });
    fireEvent.mouseDown(tools);
    expect(tools.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toContain('Start the server to see its tools.');
    fireEvent.click(screen.getByRole('button', { name: 'All servers' }));
    expect(screen.getByRole('listitem', { name: 'gh' })).toBeTruthy();
  });

  it('shows a crash’s stack trace once on the Overview (the reason without the copy the host appended)', async () => {
    const stack = ['Error: boom', '    at main (/srv/index.js:3:9)'];
    const reason = `Server "gh" exited during startup (exit code 1).\nLast stderr lines:\n${stack.map((l) => `  ${l}`).join('\n')}`;
    await renderPage([serverView({ name: 'gh' }, { status: 'crashed', reason, lastStderr: stack, exit: { code: 1, signal: null } })]);
    fireEvent.click(screen.getByRole('button', { name: 'gh' }));
    expect(screen.getByLabelText('What went wrong with gh').textContent).toBe('Server "gh" exited during startup (exit code 1).');
    expect(screen.getByRole('tabpanel').textContent?.split('at main (/srv/index.js:3:9)')).toHaveLength(2);
  });

  it('counts the tools on the Tools tab as it does resources and prompts', async () => {
    await renderPage([serverView({ name: 'gh' }, { status: 'ready', counts: { tools: 12, resources: 3, prompts: 0 } })]);
    fireEvent.click(screen.getByRole('button', { name: 'gh' }));
    expect(screen.getByRole('tab', { name: /^Tools\s*12$/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /^Resources\s*3$/ })).toBeTruthy();
  });

  it('says in words whether a server is sandboxed, and offers Share folder or Run unsandboxed when the sandbox stopped its launch', async () => {
    const boxed = { enabled: true, network: 'blocked' as const, hosts: [] };
    const host = await renderPage([
      serverView(
        { id: 'b1', name: 'notes', sandbox: boxed },
        {
          status: 'error',
          reason: 'Server "notes" exited during startup (exit code 1).',
          lastStderr: ["Error: ENOENT: no such file or directory, open '/home/ana/.notesrc'"],
          sandbox: {
            summary: 'Sandboxed: sees 2 shared folders; network blocked',
            folders: ['/a', '/b'],
            readOnlyFolders: [],
            blockedPath: '/home/ana/.notesrc',
          },
        },
      ),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'notes' }));
    expect(screen.getByText('Sandboxed: sees 2 shared folders; network blocked')).toBeTruthy();
    expect(screen.getByText(/runs in a sandbox: changing the folders shared with it restarts it/)).toBeTruthy();
    const notice = within(screen.getByText(/could not read/).closest('[role="alert"]') as HTMLElement);
    expect(notice.getByText('/home/ana/.notesrc')).toBeTruthy();
    expect(screen.getByText(/could not read/).textContent).toContain('outside the sandbox');

    await act(async () => fireEvent.click(notice.getByRole('button', { name: 'Run unsandboxed' })));
    expect(host.calls.at(-1)).toMatchObject({
      method: 'updateServer',
      input: { id: 'b1', server: { name: 'notes', sandbox: { enabled: false } } },
    });
    await act(async () => fireEvent.click(notice.getByRole('button', { name: 'Share folder' })));
    expect(host.calls.map((c) => c.method)).toEqual(expect.arrayContaining(['addRoot', 'setRootSharing', 'startServer']));
    expect(host.calls.find((c) => c.method === 'addRoot')?.input).toEqual({ path: '/home/ana' });
  });

  it('names a folder argument its sandbox shows read-only, lists its mounts, and offers both ways out while it runs', async () => {
    const host = await renderPage([
      serverView(
        { id: 'f1', name: 'files', sandbox: { enabled: true, network: 'allowed', hosts: [] } },
        {
          status: 'ready',
          sandbox: {
            summary: 'Sandboxed: sees no shared folders; network allowed',
            folders: [],
            readOnlyFolders: [],
            pathNotes: [{ path: '/srv/data', from: 'argument 2', kind: 'read-only', folder: '/srv/data' }],
            mounts: [
              { path: '/srv/data', access: 'read-only', what: 'its own code, or a folder its launch names' },
              { path: '/data/sandboxes/f1', access: 'read-write', what: 'its scratch folder (HOME, TMPDIR)' },
            ],
          },
        },
      ),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'files' }));
    const notice = within(screen.getByText(/is given/).closest('[role="alert"]') as HTMLElement);
    expect(screen.getByText(/is given/).textContent).toBe(
      '“files” is given /srv/data (its argument 2), which the sandbox shows only read-only.',
    );
    const mounts = within(screen.getByRole('list', { name: 'What its sandbox mounts' }));
    expect(mounts.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '/srv/data — reads only: its own code, or a folder its launch names',
      '/data/sandboxes/f1 — reads and writes: its scratch folder (HOME, TMPDIR)',
    ]);
    await act(async () => fireEvent.click(notice.getByRole('button', { name: 'Share folder' })));
    expect(host.calls.find((c) => c.method === 'addRoot')?.input).toEqual({ path: '/srv/data' });
    expect(notice.getByRole('button', { name: 'Run unsandboxed' })).toBeTruthy();
  });

  it('says a server that was never sandboxed is not', async () => {
    await renderPage([serverView({ id: 'o1', name: 'open' })]);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(screen.getByText('Not sandboxed: it can read and write everything you can')).toBeTruthy();
  });

  it('searches servers by name or command and filters them by status, with counts', async () => {
    await renderPage([
      serverView({ id: 'a', name: 'github', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] }, { status: 'ready' }),
      serverView({ id: 'b', name: 'notes', command: 'uvx', args: ['notes-mcp'] }, { status: 'error', reason: 'uvx not found' }),
      serverView({ id: 'c', name: 'memory', command: 'node' }, { status: 'stopped' }),
    ]);
    const names = () =>
      within(screen.getByRole('list', { name: 'Servers' }))
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label'));
    expect(names()).toEqual(['github', 'notes', 'memory']);
    fireEvent.keyDown(screen.getByRole('combobox', { name: 'Status' }), { key: 'Enter' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All (3)',
      'Ready (1)',
      'Starting (0)',
      'Stopped (1)',
      'Error or crashed (1)',
    ]);
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search servers' }), { target: { value: 'SERVER-GITHUB' } });
    expect(names()).toEqual(['github']);
    expect(screen.getByText('1 of 3 servers')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search servers' }), { target: { value: '' } });
    await choose(screen.getByRole('combobox', { name: 'Status' }), 'Error or crashed (1)');
    expect(names()).toEqual(['notes']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search servers' }), { target: { value: 'github' } });
    expect(screen.queryByRole('list', { name: 'Servers' })).toBeNull();
    expect(screen.getByText(/No server matches “github” with that status/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show all servers' }));
    expect(names()).toEqual(['github', 'notes', 'memory']);
  });

  it('starts or stops the ticked servers at once, acting only on those the action fits', async () => {
    const host = await renderPage([
      serverView({ id: 'a', name: 'github' }, { status: 'ready' }),
      serverView({ id: 'b', name: 'notes' }, { status: 'stopped' }),
      serverView({ id: 'c', name: 'memory' }, { status: 'error', reason: 'exit' }),
      serverView({ id: 'd', name: 'fetch' }, { status: 'stopped' }),
    ]);
    const bulk = within(screen.getByRole('toolbar', { name: 'Selected servers' }));
    expect(bulk.queryByRole('button', { name: /Start selected/ })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select github' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select notes' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select memory' }));
    expect(bulk.getByText('3 selected')).toBeTruthy();
    await act(async () => fireEvent.click(bulk.getByRole('button', { name: 'Start selected (2)' })));
    const started = host.calls.filter((c) => c.method === 'startServer').map((c) => (c.input as { id: string }).id);
    expect(started).toEqual(['b', 'c']);
    expect(bulk.getByText('Started 2 servers.')).toBeTruthy();
    await act(async () => fireEvent.click(bulk.getByRole('button', { name: 'Stop selected (1)' })));
    expect(host.calls.filter((c) => c.method === 'stopServer')).toEqual([{ method: 'stopServer', input: { id: 'a' } }]);
    // "Select all shown" ticks what the filters show, and unticks it all again.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search servers' }), { target: { value: 'fetch' } });
    fireEvent.click(bulk.getByRole('checkbox', { name: 'Select all shown' }));
    expect(bulk.getByText('1 selected')).toBeTruthy();
    fireEvent.click(bulk.getByRole('button', { name: 'Clear selection' }));
    expect(bulk.queryByText(/selected$/)).toBeNull();
  });

  it('shows each row on one line: status, name, what it offers, and its sandbox and network in words', async () => {
    await renderPage([
      serverView(
        { id: 'a', name: 'files', sandbox: { enabled: true, network: 'blocked', hosts: [] } },
        { status: 'ready', counts: { tools: 3, resources: 1, prompts: 0 } },
      ),
      serverView({ id: 'b', name: 'web', sandbox: { enabled: true, network: 'hosts', hosts: ['api.example.com'] } }),
      serverView({ id: 'c', name: 'plain' }),
      serverView({ id: 'd', name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp' }),
    ]);
    const row = (name: string) => within(screen.getByRole('listitem', { name }));
    expect(row('files').getByText('3 tools · 1 resource · 0 prompts')).toBeTruthy();
    expect(row('files').getByText('Sandboxed · network blocked')).toBeTruthy();
    expect(row('web').getByText('Sandboxed · network: 1 host')).toBeTruthy();
    expect(row('plain').getByText('Not sandboxed')).toBeTruthy();
    expect(row('remote').getByText('Remote')).toBeTruthy();
    // A Ready server is not offered Diagnose; its run action is a quiet button, not a filled one.
    expect(row('files').queryByRole('button', { name: 'Diagnose' })).toBeNull();
    expect(row('files').getByRole('button', { name: 'Stop' }).classList.contains('primary')).toBe(false);
  });

  it('asks before adding a second copy of a quick-add server, and adds it only when told to', async () => {
    const host = await renderPage([serverView({ id: 'e', name: 'Everything (demo)', preset: 'everything' }, { status: 'ready' })]);
    const quickAdd = within(screen.getByRole('group', { name: 'Quick add' }));
    fireEvent.click(quickAdd.getByRole('button', { name: 'Everything (demo)' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Add another Everything (demo)?' }));
    expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(host.of('addPresetServer')).toEqual([]);
    fireEvent.click(quickAdd.getByRole('button', { name: 'Everything (demo)' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add another' })));
    expect(host.of('addPresetServer')).toEqual([{ preset: 'everything' }]);
    // Another kind is added at once.
    await act(async () => fireEvent.click(quickAdd.getByRole('button', { name: 'Memory' })));
    expect(host.of('addPresetServer')).toEqual([{ preset: 'everything' }, { preset: 'memory' }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
