import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallResult, InteractionAuditEntry } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ServerRequestsSettings } from './ServerRequestsSettings';
import { auditEntry } from './test-support/audit-entry';

afterEach(cleanup);

/** A host whose audit trail is `trail` (oldest first), paged as the core pages it; `fail` makes it refuse. */
function auditHost(trail: InteractionAuditEntry[], state = { fail: false }) {
  return fakeHost({
    reply: (method, input): CallResult | undefined => {
      if (method !== 'listInteractionAudit') return undefined;
      if (state.fail) return { ok: false, error: { code: 'internal', message: 'The audit trail is unavailable' } };
      const { limit, before } = input as { limit: number; before?: number };
      const older = trail.filter((e) => before === undefined || e.seq < before).reverse();
      const entries = older.slice(0, limit);
      return { ok: true, value: { entries, ...(older.length > limit ? { nextBefore: entries[entries.length - 1].seq } : {}) } };
    },
  });
}

const trailOf = (count: number) => Array.from({ length: count }, (_, i) => auditEntry({ seq: i + 1, serverName: `server ${i + 1}` }));
const shownServers = () =>
  within(screen.getByRole('list', { name: 'Server requests' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('strong')?.textContent);
const settle = (host: ReturnType<typeof fakeHost>) =>
  host.emit({ name: 'interactionSettled', payload: { id: 'r', kind: 'sampling', outcome: 'sent' } });

describe('Settings › Server requests', () => {
  it('shows the newest page first and pages back with "Show older requests"', async () => {
    const host = auditHost(trailOf(30));
    await renderWithHost(<ServerRequestsSettings />, host, 'settings');
    expect(screen.getByRole('heading', { name: 'Server requests' })).toBeTruthy();
    expect(host.of('listInteractionAudit')).toEqual([{ limit: 25 }]);
    expect(shownServers()).toHaveLength(25);
    expect(shownServers()[0]).toBe('server 30');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show older requests' })));
    expect(host.of('listInteractionAudit')[1]).toEqual({ limit: 25, before: 6 });
    expect(shownServers()).toEqual(Array.from({ length: 30 }, (_, i) => `server ${30 - i}`));
    expect(screen.queryByRole('button', { name: 'Show older requests' })).toBeNull();
  });

  it('refetches the newest page when a request settles, keeping the older pages shown', async () => {
    const trail = trailOf(26);
    const host = auditHost(trail);
    await renderWithHost(<ServerRequestsSettings />, host, 'settings');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show older requests' })));
    expect(shownServers()).toHaveLength(26);

    trail.push(auditEntry({ seq: 27, serverName: 'newcomer', kind: 'elicitation', outcome: 'accepted' }));
    settle(host);
    await act(async () => undefined);
    expect(host.of('listInteractionAudit')).toHaveLength(3);
    expect(shownServers()).toHaveLength(27);
    expect(shownServers()[0]).toBe('newcomer');
    expect(shownServers().at(-1)).toBe('server 1');
  });

  it('says so when nothing was asked yet', async () => {
    await renderWithHost(<ServerRequestsSettings />, auditHost([]), 'settings');
    expect(screen.getByText('No server requests yet.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a load error in an alert, and clears it once a later load works', async () => {
    const state = { fail: true };
    const host = auditHost(trailOf(1), state);
    await renderWithHost(<ServerRequestsSettings />, host, 'settings');
    expect(screen.getByRole('alert').textContent).toBe('Could not load server requests: The audit trail is unavailable');
    expect(screen.getByText('No server requests yet.')).toBeTruthy();

    state.fail = false;
    settle(host);
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(shownServers()).toEqual(['server 1']);
  });
});
