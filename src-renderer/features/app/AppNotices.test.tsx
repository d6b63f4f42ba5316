import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenRequest } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { AppNotices } from './AppNotices';

afterEach(cleanup);

const base = { receivedAt: '2026-01-01T00:00:00.000Z', source: 'second-instance' as const };
const bundle: OpenRequest = { ...base, id: 'b1', kind: 'install-bundle', path: '/home/me/Downloads/x.mcpb' };
const link: OpenRequest = {
  ...base,
  id: 'l1',
  kind: 'install-link',
  link: 'patchbay://install?…',
  server: { name: 'fetch', command: 'npx', args: ['-y', '@example/fetch mcp'], env: { API_KEY: '${input:key}' } },
};
const refused: OpenRequest = {
  ...base,
  id: 'r1',
  kind: 'rejected',
  input: 'patchbay://uninstall?{}',
  reason: 'Patchbay links can only install a server',
};

describe('AppNotices', () => {
  it('shows what the system asked Patchbay to open that it cannot use, and dismisses through the host; installable requests are not notices', async () => {
    const host = fakeHost();
    await renderWithHost(<AppNotices />, host);
    expect(screen.queryByRole('region', { name: 'Notices' })).toBeNull();

    host.emit({ name: 'openRequestReceived', payload: bundle });
    host.emit({ name: 'openRequestReceived', payload: link });
    // Links and bundles open the install dialog instead (InstallFromOutside).
    expect(screen.queryByRole('region', { name: 'Notices' })).toBeNull();
    host.emit({ name: 'openRequestReceived', payload: refused });
    host.emit({ name: 'openRequestReceived', payload: refused }); // replayed after a reconnect: still one notice
    const notices = within(screen.getByRole('region', { name: 'Notices' })).getAllByTestId('open-request');
    expect(notices).toHaveLength(1);
    expect(notices[0].textContent).toContain(
      'Patchbay was asked to open something it cannot use: Patchbay links can only install a server',
    );
    expect(notices[0].textContent).toContain('patchbay://uninstall?{}');
    expect(notices[0].textContent).toContain('Nothing was installed or started.');

    fireEvent.click(
      screen.getByRole('button', {
        name: 'Dismiss: Patchbay was asked to open something it cannot use: Patchbay links can only install a server',
      }),
    );
    expect(host.of('dismissOpenRequest')).toEqual([{ id: 'r1' }]);
    host.emit({ name: 'openRequestDismissed', payload: { id: 'r1' } });
    expect(screen.queryAllByTestId('open-request')).toHaveLength(0);
  });

  it('tells about a recovered window crash, and offers an update that is ready to install', async () => {
    const host = fakeHost();
    await renderWithHost(<AppNotices />, host);
    host.emit({ name: 'windowRecoveryChanged', payload: { at: new Date().toISOString(), reason: 'oom', exitCode: 1 } });
    expect(screen.getByRole('alert').textContent).toContain('The window crashed (oom) and was reloaded just now.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss: the window crashed' }));
    expect(host.calls.some((c) => c.method === 'dismissWindowRecovery')).toBe(true);

    host.emit({ name: 'updateStateChanged', payload: { status: 'ready', version: '1.4.0', installOnQuit: false } });
    expect(screen.getByText('Patchbay 1.4.0 is ready to install.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Install when I quit' }));
    expect(host.of('installUpdate')).toEqual([{ when: 'on-quit' }]);
    host.emit({ name: 'updateStateChanged', payload: { status: 'ready', version: '1.4.0', installOnQuit: true } });
    expect(screen.getByText('It will be installed when Patchbay quits.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Install when I quit' })).toBeNull();
  });

  it('says so when a dismissal fails, instead of failing silently', async () => {
    const host = fakeHost({
      reply: (method) =>
        method === 'dismissOpenRequest' ? { ok: false, error: { code: 'internal', message: 'host went away' } } : undefined,
    });
    await renderWithHost(<AppNotices />, host);
    host.emit({ name: 'openRequestReceived', payload: refused });
    fireEvent.click(screen.getByRole('button', { name: /^Dismiss: / }));
    expect((await screen.findByRole('alert')).textContent).toContain('host went away');
  });

  it('carries out the native menu’s page shortcuts', async () => {
    const host = fakeHost();
    const { store } = await renderWithHost(<AppNotices />, host, 'chat');
    host.emit({ name: 'menuCommand', payload: { command: 'navigate', page: 'settings' } });
    expect(store.getState().page).toBe('settings');
  });
});
