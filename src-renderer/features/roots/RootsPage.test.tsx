import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FolderListing } from '@contract';
import { serverView } from '../servers/test-support/server-factories';
import { RootsPage } from './RootsPage';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { rootView } from './test-support/root-factories';

afterEach(cleanup);

const home: FolderListing = {
  path: '/home/ana',
  parent: '/home',
  folders: [
    { name: 'Music', path: '/home/ana/Music' },
    { name: 'Projects', path: '/home/ana/Projects' },
  ],
  truncated: false,
};
const projects: FolderListing = { path: '/home/ana/Projects', parent: '/home/ana', folders: [], truncated: false };

describe('RootsPage', () => {
  it('lists folders with their real path, availability and who sees them', async () => {
    const host = fakeHost({
      servers: [serverView({ id: 's1', name: 'files' }), serverView({ id: 's2', name: 'demo' })],
      roots: {
        roots: [
          rootView({ id: 'r1', name: 'Work', path: '/data/work', pickedPath: '/home/ana/work-link' }),
          rootView({ id: 'r2', name: 'Gone', path: '/media/usb', available: false }),
        ],
        sharing: [
          { serverId: 's1', mode: 'subset', rootIds: ['r1'] },
          { serverId: 's2', mode: 'none', rootIds: [] },
        ],
      },
    });
    await renderWithHost(<RootsPage />, host, 'roots');
    expect(screen.getByRole('heading', { name: 'Roots' })).toBeTruthy();
    const work = within(screen.getByRole('listitem', { name: 'Work' }));
    expect(work.getByText('/data/work')).toBeTruthy();
    expect(work.getByText('Available')).toBeTruthy();
    expect(work.getByText(/servers get its real location/)).toBeTruthy();
    expect(work.getByText('files')).toBeTruthy();
    const gone = within(screen.getByRole('listitem', { name: 'Gone' }));
    expect(gone.getByText('Unavailable')).toBeTruthy();
    expect(gone.getByText('No server')).toBeTruthy();

    await act(async () => fireEvent.click(gone.getByRole('button', { name: 'Remove' })));
    expect(host.last()).toEqual({ method: 'removeRoot', input: { id: 'r2' } });
    host.emit({ name: 'rootsChanged', payload: { roots: [rootView({ id: 'r1', name: 'Work', path: '/data/work' })], sharing: [] } });
    expect(screen.queryByRole('listitem', { name: 'Gone' })).toBeNull();
    expect(within(screen.getByRole('listitem', { name: 'Work' })).getByText('No server')).toBeTruthy();
  });

  it('shares a folder read-only, asking first when that restarts a running sandboxed server', async () => {
    const sandbox = { summary: 'Sandboxed: sees 1 shared folder; network blocked', folders: ['/data/work'], readOnlyFolders: [] };
    const host = fakeHost({
      servers: [
        serverView({ id: 's1', name: 'files' }, { status: 'ready', sandbox }),
        serverView({ id: 's2', name: 'plain' }, { status: 'ready' }),
      ],
      roots: {
        roots: [rootView({ id: 'r1', name: 'Work', path: '/data/work' }), rootView({ id: 'r2', name: 'Notes', path: '/data/notes' })],
        sharing: [
          { serverId: 's1', mode: 'subset', rootIds: ['r1'] },
          { serverId: 's2', mode: 'all', rootIds: [] },
        ],
      },
    });
    await renderWithHost(<RootsPage />, host, 'roots');
    // Only an unsandboxed server sees Notes: applied at once, nothing to restart.
    await act(async () =>
      fireEvent.click(within(screen.getByRole('listitem', { name: 'Notes' })).getByRole('checkbox', { name: 'Read only' })),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(host.last()).toEqual({ method: 'setRootReadOnly', input: { id: 'r2', readOnly: true } });

    const work = within(screen.getByRole('listitem', { name: 'Work' }));
    await act(async () => fireEvent.click(work.getByRole('checkbox', { name: 'Read only' })));
    const ask = screen.getByRole('alertdialog', { name: 'Restart “files”?' });
    expect(ask.textContent).toContain('Restarting “files” so its sandbox sees the new folders');
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' })));
    expect(host.of('setRootReadOnly')).toHaveLength(1);

    await act(async () => fireEvent.click(work.getByRole('checkbox', { name: 'Read only' })));
    await act(async () =>
      fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Restart “files”?' })).getByRole('button', { name: 'Restart now' })),
    );
    expect(host.last()).toEqual({ method: 'setRootReadOnly', input: { id: 'r1', readOnly: true } });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('renames in place, showing the host’s complaint next to the name', async () => {
    const host = fakeHost({
      roots: { roots: [rootView({ id: 'r1', name: 'Work' })] },
      reply: (method, input) =>
        method === 'renameRoot' && (input as { name: string }).name === ''
          ? { ok: false, error: { code: 'invalid_input', message: 'bad', data: [{ path: ['name'], message: 'Name is required' }] } }
          : undefined,
    });
    await renderWithHost(<RootsPage />, host, 'roots');
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(name, { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Name is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Client work' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(host.last()).toEqual({ method: 'renameRoot', input: { id: 'r1', name: 'Client work' } });
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });

  it('in web mode, adds a folder typed or found with the host-served folder browser', async () => {
    const host = fakeHost({
      reply: (method, input) => {
        if (method === 'listFolders')
          return { ok: true, value: (input as { path: string }).path === '/home/ana/Projects' ? projects : home };
        if (method === 'addRoot' && (input as { path: string }).path === '/nope')
          return {
            ok: false,
            error: { code: 'invalid_input', message: 'x', data: [{ path: ['path'], message: 'No such folder: /nope' }] },
          };
        return undefined;
      },
    });
    await renderWithHost(<RootsPage />, host, 'roots');
    fireEvent.click(screen.getByRole('button', { name: 'Add folder' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add folder' }));
    const path = dialog.getByRole('textbox', { name: 'Folder path' });

    fireEvent.change(path, { target: { value: '/nope' } });
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Add' })));
    expect(dialog.getByText('No such folder: /nope')).toBeTruthy();

    await act(async () => fireEvent.click(await dialog.findByRole('button', { name: 'Projects' })));
    expect((path as HTMLInputElement).value).toBe('/home/ana/Projects');
    expect(await dialog.findByText('No subfolders.')).toBeTruthy();
    expect(host.calls.filter((c) => c.method === 'listFolders').map((c) => c.input)).toEqual([
      { path: '' },
      { path: '/home/ana/Projects' },
    ]);
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Add' })));
    expect(host.last()).toEqual({ method: 'addRoot', input: { path: '/home/ana/Projects' } });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('in the desktop app, opens the native picker and adds what was picked', async () => {
    let picked: string | null = '/home/ana/Picked';
    const host = fakeHost({
      info: { mode: 'electron' },
      reply: (method) => (method === 'pickFolder' ? { ok: true, value: { path: picked } } : undefined),
    });
    await renderWithHost(<RootsPage />, host, 'roots');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add folder' })));
    expect(host.calls.slice(-2)).toEqual([
      { method: 'pickFolder', input: undefined },
      { method: 'addRoot', input: { path: '/home/ana/Picked' } },
    ]);
    picked = null;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add folder' })));
    expect(host.last()).toEqual({ method: 'pickFolder', input: undefined });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows recent sharing as the host reports it', async () => {
    const host = fakeHost();
    await renderWithHost(<RootsPage />, host, 'roots');
    expect(screen.getByText('Nothing shared yet.')).toBeTruthy();
    host.emit({
      name: 'rootsAuditAppended',
      payload: {
        id: 1,
        at: new Date().toISOString(),
        serverId: 's1',
        serverName: 'files',
        action: 'sent',
        roots: [{ uri: 'file:///w', name: 'Work' }],
        detail: 'Sent 1 folder',
      },
    });
    expect(within(screen.getByRole('list', { name: 'Recent sharing' })).getByText(/Sent 1 folder: Work/)).toBeTruthy();
  });
});
