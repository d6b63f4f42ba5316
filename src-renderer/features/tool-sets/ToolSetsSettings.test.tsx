import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSetView } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { serverView } from '../servers/test-support/server-factories';
import { ToolSetsSettings } from './ToolSetsSettings';
import { choose } from '../../test-support/choose';

afterEach(cleanup);

const research: ToolSetView = {
  id: 'set-1',
  name: 'Research',
  members: { servers: [{ id: 'gone', name: 'Old search' }], tools: [{ serverId: 'a', serverName: 'Alpha', tool: 'fetch' }] },
  unavailable: [{ kind: 'server', label: 'Old search' }],
};

function host() {
  return fakeHost({
    servers: [serverView({ id: 'a', name: 'Alpha' }, { status: 'ready' })],
    toolOffers: {
      tools: [
        { serverId: 'a', serverName: 'Alpha', tool: 'fetch', offered: true, pinned: false },
        { serverId: 'a', serverName: 'Alpha', tool: 'shell', offered: false, pinned: false },
      ],
      sets: [research],
    },
  });
}

describe('Settings › Tool sets', () => {
  it('lists the sets, says what of a set is gone, and sets the default for new conversations', async () => {
    const h = host();
    await renderWithHost(<ToolSetsSettings />, h, 'settings');
    const list = screen.getByRole('list', { name: 'Tool sets' });
    expect(list.textContent).toContain('1 server in this set is no longer available: Old search.');
    await choose(screen.getByRole('combobox', { name: 'Tool set for new conversations' }), 'Research');
    expect(h.of('updateSettings')).toEqual([{ defaultToolSetId: 'set-1' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Research' }));
    expect(h.of('deleteToolSet')).toEqual([{ id: 'set-1' }]);
  });

  it('creates a set from whole servers or single tools, and edits one (its missing members dropped)', async () => {
    const h = host();
    await renderWithHost(<ToolSetsSettings />, h, 'settings');
    fireEvent.click(screen.getByRole('button', { name: 'New tool set' }));
    const form = within(screen.getByRole('form', { name: 'New tool set' }));
    fireEvent.click(form.getByRole('button', { name: 'Save tool set' }));
    expect(form.getByRole('alert').textContent).toBe('Could not save the tool set: A tool set needs a name.');
    // The name's label sits in a field above its box (a column), not glued to it on one line.
    expect(form.getByLabelText('Tool set name').closest('.field')?.querySelector('label')?.textContent).toBe('Tool set name');
    fireEvent.change(form.getByLabelText('Tool set name'), { target: { value: 'Shell' } });
    fireEvent.click(form.getByRole('switch', { name: 'Include shell' }));
    fireEvent.click(form.getByRole('button', { name: 'Save tool set' }));
    expect(h.of('saveToolSet')).toEqual([{ name: 'Shell', members: { servers: [], tools: [{ serverId: 'a', tool: 'shell' }] } }]);

    fireEvent.click(await screen.findByRole('button', { name: 'Edit Research' }));
    const edit = within(screen.getByRole('form', { name: 'Edit tool set Research' }));
    fireEvent.click(edit.getByRole('switch', { name: 'All tools of Alpha' }));
    fireEvent.click(edit.getByRole('button', { name: 'Save tool set' }));
    expect(h.of('saveToolSet').at(-1)).toEqual({ id: 'set-1', name: 'Research', members: { servers: ['a'], tools: [] } });
  });

  it('a set can take in servers added later: chosen in the editor, said in its summary, and a server that joined so shows as in it', async () => {
    const h = host();
    await renderWithHost(<ToolSetsSettings />, h, 'settings');
    fireEvent.click(screen.getByRole('button', { name: 'New tool set' }));
    const form = within(screen.getByRole('form', { name: 'New tool set' }));
    fireEvent.change(form.getByLabelText('Tool set name'), { target: { value: 'Growing' } });
    fireEvent.click(form.getByRole('switch', { name: 'All tools of Alpha' }));
    fireEvent.click(form.getByRole('switch', { name: 'Include servers added later' }));
    expect(form.getByText('Every tool of a server you add after saving joins this set.')).toBeTruthy();
    fireEvent.click(form.getByRole('button', { name: 'Save tool set' }));
    expect(h.of('saveToolSet')).toEqual([{ name: 'Growing', members: { servers: ['a'], tools: [], addedLater: true } }]);
    cleanup();

    // Alpha was added after the set was saved: the set shows it as a member, and keeps it when saved again.
    const growing: ToolSetView = {
      id: 'set-2',
      name: 'Growing',
      members: { servers: [], tools: [], addedLater: { knownServerIds: ['old'] } },
      unavailable: [],
    };
    const later = fakeHost({
      servers: [serverView({ id: 'a', name: 'Alpha' }, { status: 'ready' })],
      toolOffers: { tools: [], sets: [growing] },
    });
    await renderWithHost(<ToolSetsSettings />, later, 'settings');
    expect(screen.getByRole('list', { name: 'Tool sets' }).textContent).toContain('Every server added later');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Growing' }));
    const edit = within(screen.getByRole('form', { name: 'Edit tool set Growing' }));
    expect(edit.getByRole('switch', { name: 'All tools of Alpha' }).getAttribute('aria-checked')).toBe('true');
    expect(edit.getByRole('switch', { name: 'Include servers added later' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(edit.getByRole('button', { name: 'Save tool set' }));
    expect(later.of('saveToolSet')).toEqual([{ id: 'set-2', name: 'Growing', members: { servers: ['a'], tools: [], addedLater: true } }]);
  });
});
