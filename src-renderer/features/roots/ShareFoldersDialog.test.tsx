import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionOf } from '@contract';
import { serverView } from '../servers/test-support/server-factories';
import { RootsConsentHost } from './RootsConsentHost';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { rootView } from './test-support/root-factories';

afterEach(cleanup);

const request: QuestionOf<'roots'> = {
  kind: 'roots',
  id: 'q1',
  groupId: 'q1',
  serverId: 's1',
  serverName: 'files',
  requestedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:10:00.000Z',
};
const roots = [
  rootView({ id: 'r1', name: 'Work' }),
  rootView({ id: 'r2', name: 'Music' }),
  rootView({ id: 'r3', name: 'USB', available: false }),
];

async function ask() {
  const host = fakeHost({ roots: { roots } });
  await renderWithHost(<RootsConsentHost />, host, 'roots');
  expect(screen.queryByRole('dialog')).toBeNull();
  host.emit({ name: 'questionAsked', payload: request });
  const dialog = within(await screen.findByRole('dialog', { name: 'Share folders' }));
  return { host, dialog };
}

describe('the Share folders question', () => {
  it('names the server, offers the available folders, and shares the ticked ones', async () => {
    const { host, dialog } = await ask();
    expect(dialog.getByText('files')).toBeTruthy();
    expect((dialog.getByRole('checkbox', { name: 'Work' }) as HTMLInputElement).checked).toBe(true);
    expect((dialog.getByRole('checkbox', { name: /^USB/ }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Music' }));
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Share' })));
    expect(host.last()).toEqual({ method: 'answerQuestion', input: { id: 'q1', answer: { kind: 'roots', share: true, rootIds: ['r1'] } } });
    // The dialog stays until the host says the question settled.
    expect(screen.getByRole('dialog', { name: 'Share folders' })).toBeTruthy();
    host.emit({ name: 'questionSettled', payload: { id: 'q1', kind: 'roots', serverId: 's1', outcome: 'shared' } });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says beforehand that sharing restarts a server running in a sandbox, and marks read-only folders', async () => {
    const sandbox = { summary: 'Sandboxed: sees no shared folders; network blocked', folders: [], readOnlyFolders: [] };
    const host = fakeHost({
      servers: [serverView({ id: 's1', name: 'files' }, { status: 'ready', sandbox })],
      roots: { roots: [rootView({ id: 'r1', name: 'Work' }), rootView({ id: 'r2', name: 'Docs', readOnly: true })] },
    });
    await renderWithHost(<RootsConsentHost />, host, 'roots');
    host.emit({ name: 'questionAsked', payload: request });
    const dialog = within(await screen.findByRole('dialog', { name: 'Share folders' }));
    expect(dialog.getByText('“files” runs in a sandbox: Share restarts it so its sandbox holds the folders.')).toBeTruthy();
    expect(dialog.getByRole('checkbox', { name: /^Docs\s*\(read only\)/ })).toBeTruthy();
  });

  it('can share every folder, later ones included', async () => {
    const { host, dialog } = await ask();
    fireEvent.click(dialog.getByRole('radio', { name: 'All folders, including ones added later' }));
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Share' })));
    expect(host.last()).toEqual({ method: 'answerQuestion', input: { id: 'q1', answer: { kind: 'roots', share: true } } });
  });

  it('does not share when told so, nor when dismissed', async () => {
    const first = await ask();
    await act(async () => fireEvent.click(first.dialog.getByRole('button', { name: "Don't share" })));
    expect(first.host.last()).toEqual({ method: 'answerQuestion', input: { id: 'q1', answer: { kind: 'roots', share: false } } });
    cleanup();

    const second = await ask();
    await act(async () => fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' }));
    expect(second.host.last()).toEqual({ method: 'answerQuestion', input: { id: 'q1', answer: { kind: 'roots', share: false } } });
  });

  it('will not share an empty choice, and shows why an answer failed', async () => {
    const host = fakeHost({
      roots: { roots: [rootView({ id: 'r1', name: 'Work' })] },
      reply: (method) =>
        method === 'answerQuestion'
          ? { ok: false, error: { code: 'invalid_input', message: 'This question was already answered, expired or withdrawn.' } }
          : undefined,
    });
    await renderWithHost(<RootsConsentHost />, host, 'roots');
    host.emit({ name: 'questionAsked', payload: request });
    const dialog = within(await screen.findByRole('dialog', { name: 'Share folders' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Work' }));
    expect((dialog.getByRole('button', { name: 'Share' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Work' }));
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Share' })));
    expect(dialog.getByRole('alert').textContent).toMatch(/already answered/);
  });

  it('one dialog for the servers that asked together: a count, a choice per server, and one for the rest', async () => {
    const host = fakeHost({ roots: { roots } });
    await renderWithHost(<RootsConsentHost />, host, 'roots');
    const asked = (id: string, serverName: string) => ({ ...request, id, serverId: `s-${id}`, serverName, groupId: 'q1' });
    host.emit({ name: 'questionAsked', payload: request });
    host.emit({ name: 'questionAsked', payload: asked('q2', 'memory') });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    const dialog = within(screen.getByRole('dialog', { name: 'Share folders' }));
    expect(dialog.getByText(/^2 servers ask which of your folders they may see/)).toBeTruthy();
    // A third server asks while the dialog is open: it joins the same dialog.
    host.emit({ name: 'questionAsked', payload: asked('q3', 'notes') });
    const list = within(dialog.getByRole('list', { name: 'Servers asking (3)' }));
    expect(list.getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual(['files', 'memory', 'notes']);

    await act(async () => fireEvent.click(list.getByRole('button', { name: "Don't share with memory" })));
    expect(host.last()).toEqual({ method: 'answerQuestion', input: { id: 'q2', answer: { kind: 'roots', share: false } } });
    host.emit({ name: 'questionSettled', payload: { id: 'q2', kind: 'roots', serverId: 's-q2', outcome: 'declined' } });
    expect(list.getAllByRole('listitem')[1].textContent).toContain('Not shared');
    expect(dialog.getByText('Share and Don’t share answer the 2 servers still asking.')).toBeTruthy();
    // Not as stray words after the buttons ("with all 2").
    expect(dialog.queryByText(/^with (all|the) \d/)).toBeNull();

    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Share' })));
    expect(host.last()).toEqual({
      method: 'answerQuestion',
      input: { id: 'q1', answer: { kind: 'roots', share: true, rootIds: ['r1', 'r2'], wholeGroup: true } },
    });
    host.emit({ name: 'questionSettled', payload: { id: 'q1', kind: 'roots', serverId: 's1', outcome: 'shared' } });
    host.emit({ name: 'questionSettled', payload: { id: 'q3', kind: 'roots', serverId: 's-q3', outcome: 'shared' } });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("a group's questions asked later than another group's wait their turn in a dialog of their own", async () => {
    const host = fakeHost({ roots: { roots } });
    await renderWithHost(<RootsConsentHost />, host, 'roots');
    host.emit({ name: 'questionAsked', payload: request });
    host.emit({ name: 'questionSettled', payload: { id: 'q1', kind: 'roots', serverId: 's1', outcome: 'timed-out' } });
    host.emit({ name: 'questionAsked', payload: { ...request, id: 'q9', groupId: 'q9', serverName: 'later' } });
    const dialog = within(screen.getByRole('dialog', { name: 'Share folders' }));
    expect(dialog.getByText('later')).toBeTruthy();
    expect(dialog.queryByRole('list', { name: /Servers asking/ })).toBeNull();
  });
});
