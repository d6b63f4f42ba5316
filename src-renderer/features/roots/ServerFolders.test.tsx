import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerFoldersSection } from './ServerFolders';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { rootView } from './test-support/root-factories';

afterEach(cleanup);

const roots = [rootView({ id: 'r1', name: 'Work' }), rootView({ id: 'r2', name: 'Music' })];

describe('the server page’s Folders section', () => {
  it('says when nothing is decided yet, and applies each change at once', async () => {
    const host = fakeHost({ roots: { roots } });
    await renderWithHost(<ServerFoldersSection serverId="s1" serverName="files" />, host, 'roots');
    const section = within(screen.getByRole('region', { name: 'Folders' }));
    expect(section.getByText(/Not decided yet/)).toBeTruthy();
    expect(section.getAllByRole('radio').some((r) => (r as HTMLInputElement).checked)).toBe(false);

    await act(async () => fireEvent.click(section.getByRole('radio', { name: 'All folders, including ones added later' })));
    expect(host.last()).toEqual({ method: 'setRootSharing', input: { serverId: 's1', mode: 'all', rootIds: [] } });
    host.emit({ name: 'rootsChanged', payload: { roots, sharing: [{ serverId: 's1', mode: 'all', rootIds: [] }] } });
    expect(section.queryByText(/Not decided yet/)).toBeNull();
    expect((section.getByRole('checkbox', { name: 'Music' }) as HTMLInputElement).checked).toBe(true);

    // Unticking one folder of "all" means "all the others, only".
    await act(async () => fireEvent.click(section.getByRole('checkbox', { name: 'Music' })));
    expect(host.last()).toEqual({ method: 'setRootSharing', input: { serverId: 's1', mode: 'subset', rootIds: ['r1'] } });

    await act(async () => fireEvent.click(section.getByRole('radio', { name: 'No folders' })));
    expect(host.last()).toEqual({ method: 'setRootSharing', input: { serverId: 's1', mode: 'none', rootIds: [] } });
  });

  it('forgets a removed server’s policy', async () => {
    const host = fakeHost({ roots: { roots, sharing: [{ serverId: 's1', mode: 'subset', rootIds: ['r2'] }] } });
    await renderWithHost(<ServerFoldersSection serverId="s1" serverName="files" />, host, 'roots');
    const section = within(screen.getByRole('region', { name: 'Folders' }));
    expect((section.getByRole('radio', { name: 'Only these folders:' }) as HTMLInputElement).checked).toBe(true);
    expect((section.getByRole('checkbox', { name: 'Music' }) as HTMLInputElement).checked).toBe(true);
    host.emit({ name: 'serverRemoved', payload: { id: 's1' } });
    expect(section.getByText(/Not decided yet/)).toBeTruthy();
  });
});
