import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { rootView } from '../roots/test-support/root-factories';
import { ServersPage } from './ServersPage';
import { serverView } from './test-support/server-factories';

afterEach(cleanup);

const OFF = { enabled: false, network: 'allowed' as const, hosts: [] };

function offerHost(state: 'open' | 'answered' = 'open') {
  return fakeHost({
    servers: [
      serverView({ id: 'a', name: 'files', sandbox: OFF }),
      serverView({ id: 'b', name: 'notes', sandbox: OFF }),
      // Listed by the host, but since moved (in Edit): not offered again.
      serverView({ id: 'c', name: 'moved', sandbox: { enabled: true, network: 'blocked', hosts: [] } }),
    ],
    settings: { sandboxOffer: { state, serverIds: ['a', 'b', 'c'] } },
    roots: {
      roots: [rootView({ id: 'r1', path: '/data/work' }), rootView({ id: 'r2', path: '/data/ref', readOnly: true })],
      sharing: [
        { serverId: 'a', mode: 'subset', rootIds: ['r1', 'r2'] },
        { serverId: 'b', mode: 'none', rootIds: [] },
      ],
    },
    replies: { updateServer: (input: { id: string }) => serverView({ id: input.id }), updateSettings: () => DEFAULT_SETTINGS },
  });
}

describe('the offer to move existing servers into the sandbox', () => {
  it('lists each unsandboxed server with what it would see, and moves only the one asked for', async () => {
    const host = offerHost();
    await renderWithHost(<ServersPage />, host);
    const offer = screen.getByRole('region', { name: 'Move servers into the sandbox?' });
    const list = within(offer).getByRole('list', { name: 'Offered the move' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['files', 'notes']);
    expect(within(list).getByRole('listitem', { name: 'files' }).textContent).toContain('would see /data/work, /data/ref (read only)');
    expect(within(list).getByRole('listitem', { name: 'notes' }).textContent).toContain('would see no shared folders');
    expect(offer.textContent).toContain('the internet through Patchbay, not this computer’s own ports');
    expect(host.of('updateServer')).toEqual([]);

    await act(async () => fireEvent.click(within(offer).getByRole('button', { name: 'Move notes into the sandbox' })));
    expect(host.of('updateServer')).toMatchObject([{ id: 'b', server: { sandbox: { enabled: true, network: 'allowed', hosts: [] } } }]);
    expect(host.of('updateSettings')).toEqual([]);
  });

  it('Move all moves every listed server and settles the offer; Keep them as they are only settles it', async () => {
    const all = offerHost();
    await renderWithHost(<ServersPage />, all);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Move all into the sandbox' })));
    expect(all.of('updateServer').map((input) => (input as { id: string }).id)).toEqual(['a', 'b']);
    expect(all.of('updateSettings')).toEqual([{ sandboxOffer: { state: 'answered', serverIds: [] } }]);
    cleanup();

    const keep = offerHost();
    await renderWithHost(<ServersPage />, keep);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Keep them as they are' })));
    expect(keep.of('updateServer')).toEqual([]);
    expect(keep.of('updateSettings')).toEqual([{ sandboxOffer: { state: 'answered', serverIds: [] } }]);
  });

  it('is not shown once answered', async () => {
    await renderWithHost(<ServersPage />, offerHost('answered'));
    expect(screen.queryByRole('region', { name: 'Move servers into the sandbox?' })).toBeNull();
  });
});
