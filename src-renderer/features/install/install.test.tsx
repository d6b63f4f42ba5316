import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenRequest } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ServersPage } from '../servers/ServersPage';
import { serverView } from '../servers/test-support/server-factories';
import { InstallFromOutside } from './InstallFromOutside';
import { installPlan, installPreview, registryEntry } from './test-support/install-factories';

afterEach(cleanup);

describe('Find servers', () => {
  it('searches the registry through the host, lists entries by name, and installs the chosen one with the values given', async () => {
    const host = fakeHost({
      replies: {
        searchRegistry: (input: { query: string }) => ({
          registryUrl: 'http://127.0.0.1:1234',
          entries: input.query === 'nothing' ? [] : [registryEntry()],
          skipped: [{ name: 'broken/entry', reason: 'server.description: expected string' }],
        }),
        planInstall: () =>
          installPlan({
            fields: [{ id: 'env:GREETING', label: 'GREETING', kind: 'string', required: true, secret: false, description: 'Say hello' }],
            preview: installPreview({ missing: ['GREETING'] }),
          }),
        previewInstall: (input: { values: Record<string, string> }) =>
          installPreview({ env: [{ key: 'GREETING', secret: false, value: input.values['env:GREETING'] }] }),
        install: () => serverView({ name: 'Everything' }),
      },
    });
    await renderWithHost(<ServersPage />, host);
    fireEvent.click(screen.getByRole('button', { name: 'Find servers' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Find servers' }));
    const item = within(await dialog.findByRole('listitem', { name: 'Everything' }));
    expect(item.getByText('MCP server that exercises all the features of the MCP protocol')).toBeTruthy();
    expect(item.getByText(/Published by io\.github\.modelcontextprotocol/)).toBeTruthy();
    expect(dialog.getByText('1 entry left out (not valid)')).toBeTruthy();

    fireEvent.click(item.getByRole('button', { name: 'Install' }));
    const install = within(await screen.findByRole('dialog', { name: 'Install Everything' }));
    expect(host.of('planInstall')).toEqual([{ source: { kind: 'registry', entryId: registryEntry().id, option: 0 } }]);
    expect(install.getByTestId('install-command-line').textContent).toBe('npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio');
    expect(install.getByText('Still needed: GREETING.')).toBeTruthy();
    fireEvent.change(install.getByLabelText('GREETING'), { target: { value: 'hi' } });
    expect(await install.findByText('GREETING=hi')).toBeTruthy();
    expect((install.getByLabelText('Start it now') as HTMLInputElement).checked).toBe(true);
    await act(async () => fireEvent.click(install.getByRole('button', { name: 'Install' })));
    expect(host.of('install').at(-1)).toEqual({
      source: installPlan().source,
      name: 'Everything',
      values: { 'env:GREETING': 'hi' },
      start: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says what went wrong when the registry fails, and keeps the rest of the page working', async () => {
    const host = fakeHost({
      replies: {
        searchRegistry: () => {
          throw new Error('The registry at http://127.0.0.1:9 failed: it could not be reached (ECONNREFUSED).');
        },
      },
    });
    await renderWithHost(<ServersPage />, host);
    fireEvent.click(screen.getByRole('button', { name: 'Find servers' }));
    expect((await screen.findByRole('alert')).textContent).toContain('it could not be reached (ECONNREFUSED)');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.getByRole('button', { name: 'Add server' })).toBeTruthy();
  });

  it('Cancel in the install dialog returns to the results, the search kept (Escape: the e2e install-risks)', async () => {
    const host = fakeHost({
      replies: {
        searchRegistry: () => ({ registryUrl: 'http://127.0.0.1:1234', entries: [registryEntry()], skipped: [] }),
        planInstall: () => installPlan(),
      },
    });
    await renderWithHost(<ServersPage />, host);
    fireEvent.click(screen.getByRole('button', { name: 'Find servers' }));
    const find = () => within(screen.getByRole('dialog', { name: 'Find servers' }));
    fireEvent.change(find().getByRole('searchbox', { name: 'Search servers' }), { target: { value: 'every' } });
    fireEvent.click(within(await find().findByRole('listitem', { name: 'Everything' })).getByRole('button', { name: 'Install' }));
    const install = await screen.findByRole('dialog', { name: 'Install Everything' });
    fireEvent.click(within(install).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Install Everything' })).toBeNull());
    expect(find().getByRole('listitem', { name: 'Everything' })).toBeTruthy();
    expect((find().getByRole('searchbox', { name: 'Search servers' }) as HTMLInputElement).value).toBe('every');
    expect(host.of('install')).toEqual([]);
  });

  it('has a Close button, which closes it', async () => {
    const host = fakeHost({ replies: { searchRegistry: () => ({ registryUrl: 'http://127.0.0.1:1234', entries: [], skipped: [] }) } });
    await renderWithHost(<ServersPage />, host);
    fireEvent.click(screen.getByRole('button', { name: 'Find servers' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Find servers' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find servers' })).toBeNull());
  });
});

describe('Install bundle', () => {
  it('uploads the picked file in chunks, shows the bundle’s settings by their titles, and installs', async () => {
    const host = fakeHost({
      replies: {
        beginUpload: () => ({ uploadId: 'u1', chunkBytes: 4 }),
        uploadChunk: (input: { offset: number; data: string }) => ({ received: input.offset + atob(input.data).length }),
        openBundle: () =>
          installPlan({
            source: { kind: 'bundle', token: 't1' },
            about: { title: 'Notes (bundle)', facts: [{ label: 'Signature', value: 'Not signed' }], warnings: ['It is not signed.'] },
            fields: [
              { id: 'greeting', label: 'Greeting', kind: 'string', required: true, secret: false },
              { id: 'api_key', label: 'API key', kind: 'string', required: true, secret: true },
              { id: 'loud', label: 'Shout', kind: 'boolean', required: false, secret: false, default: false },
            ],
          }),
        previewInstall: () => installPreview(),
        install: () => serverView(),
      },
    });
    const { container } = await renderWithHost(<ServersPage />, host);
    expect(screen.getByRole('button', { name: 'Install bundle' })).toBeTruthy();
    const input = container.querySelector<HTMLInputElement>('input[type=file][accept=".mcpb"]')!;
    await act(async () => fireEvent.change(input, { target: { files: [new File(['0123456789'], 'notes.mcpb')] } }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Install Notes (bundle)' }));
    expect(host.of('uploadChunk').map((c) => (c as { offset: number }).offset)).toEqual([0, 4, 8]);
    expect(host.of('openBundle')).toEqual([{ uploadId: 'u1' }]);
    expect(dialog.getByRole('note').textContent).toBe('It is not signed.');
    expect((dialog.getByLabelText('API key') as HTMLInputElement).type).toBe('password');
    fireEvent.change(dialog.getByLabelText('Greeting'), { target: { value: 'Hello' } });
    fireEvent.change(dialog.getByLabelText('API key'), { target: { value: 'k' } });
    fireEvent.click(dialog.getByLabelText('Shout'));
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Install' })));
    expect(host.of('install').at(-1)).toMatchObject({
      source: { kind: 'bundle', token: 't1' },
      values: { greeting: 'Hello', api_key: 'k', loud: true },
    });
  });

  it('says so when the file is not a bundle, and when the host refuses it', async () => {
    const host = fakeHost({
      replies: {
        beginUpload: () => ({ uploadId: 'u1', chunkBytes: 1024 }),
        uploadChunk: () => ({ received: 1 }),
        openBundle: () => {
          throw new Error('This bundle was refused: it holds a path that escapes the bundle: ../escape.txt. Nothing was installed.');
        },
      },
    });
    const { container } = await renderWithHost(<ServersPage />, host);
    const input = container.querySelector<HTMLInputElement>('input[type=file][accept=".mcpb"]')!;
    await act(async () => fireEvent.change(input, { target: { files: [new File(['x'], 'notes.zip')] } }));
    expect(screen.getByRole('alert').textContent).toBe('notes.zip is not an MCP bundle (.mcpb file).');
    await act(async () => fireEvent.change(input, { target: { files: [new File(['x'], 'evil.mcpb')] } }));
    expect((await screen.findByRole('alert')).textContent).toContain('This bundle was refused: it holds a path that escapes the bundle');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('install links', () => {
  it('turns a link pasted into Import servers into the install confirmation, with Start unticked', async () => {
    const link = 'patchbay://install?%7B%22name%22%3A%22x%22%2C%22command%22%3A%22node%22%7D';
    const host = fakeHost({
      replies: {
        planInstall: () =>
          installPlan({ source: { kind: 'link', link }, startByDefault: false, about: { title: 'x', facts: [], warnings: [] } }),
        install: () => serverView(),
      },
    });
    await renderWithHost(<ServersPage />, host);
    fireEvent.click(screen.getByRole('button', { name: 'Import servers' }));
    fireEvent.change(screen.getByLabelText('Configuration'), { target: { value: ` ${link}\n` } });
    expect(screen.getByText(/This is an install link/)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Review link' })));
    const dialog = within(await screen.findByRole('dialog', { name: 'Install x' }));
    expect(host.of('planInstall')).toEqual([{ source: { kind: 'link', link } }]);
    expect((dialog.getByLabelText('Start it now') as HTMLInputElement).checked).toBe(false);
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Install' })));
    expect(host.of('install').at(-1)).toMatchObject({ source: { kind: 'link', link }, start: false });
  });

  it('confirms a link or bundle the operating system handed over; Cancel dismisses it, and nothing is installed', async () => {
    const request: OpenRequest = {
      id: 'req-1',
      receivedAt: '2026-01-01T00:00:00.000Z',
      source: 'open-url',
      kind: 'install-link',
      link: 'patchbay://install?{}',
      server: { name: 'fetch', command: 'npx' },
    };
    const bundle: OpenRequest = {
      id: 'req-2',
      receivedAt: '2026-01-01T00:00:00.000Z',
      source: 'open-file',
      kind: 'install-bundle',
      path: '/x.mcpb',
    };
    const host = fakeHost({
      app: { openRequests: [request, bundle] },
      replies: {
        planInstall: () =>
          installPlan({ source: { kind: 'link', link: request.link }, about: { title: 'fetch', facts: [], warnings: [] } }),
        openBundle: () => installPlan({ source: { kind: 'bundle', token: 't' }, about: { title: 'x bundle', facts: [], warnings: [] } }),
      },
    });
    await renderWithHost(<InstallFromOutside />, host);
    const dialog = within(await screen.findByRole('dialog', { name: 'Install fetch' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(host.of('dismissOpenRequest')).toEqual([{ id: 'req-1' }]);
    host.emit({ name: 'openRequestDismissed', payload: { id: 'req-1' } });
    expect(await screen.findByRole('dialog', { name: 'Install x bundle' })).toBeTruthy();
    expect(host.of('openBundle')).toEqual([{ openRequestId: 'req-2' }]);
    expect(host.of('install')).toEqual([]);
  });
});
