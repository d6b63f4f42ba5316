import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry, StandingDecision } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ConsentSettings } from './ConsentSettings';

afterEach(cleanup);

const decision = (overrides: Partial<StandingDecision>): StandingDecision => ({
  id: 'tool:srv-1:get-sum',
  kind: 'tool',
  serverId: 'srv-1',
  serverName: 'everything',
  tool: 'get-sum',
  decision: 'allow',
  state: 'active',
  since: new Date().toISOString(),
  ...overrides,
});

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  seq: 1,
  callId: 'c1',
  serverId: 'srv-1',
  serverName: 'everything',
  tool: 'get-sum',
  origin: 'model',
  decidedBy: 'user',
  decision: 'allowed',
  argsDigest: 'd'.repeat(64),
  args: '{"a":1}',
  requestedAt: new Date().toISOString(),
  outcome: 'ok',
  ...overrides,
});

describe('ConsentSettings', () => {
  it('lists every standing decision with its own Revoke, and the audit trail with interrupted calls', async () => {
    const host = fakeHost({
      consent: {
        decisions: [decision({}), decision({ id: 'server:srv-1', kind: 'server', tool: undefined, decision: 'trust', state: 'suspended' })],
      },
      reply: (method) =>
        method === 'listToolAudit'
          ? { ok: true, value: { entries: [entry({ seq: 2, callId: 'c2', outcome: 'interrupted', origin: 'user' }), entry({})] } }
          : undefined,
    });
    await renderWithHost(<ConsentSettings />, host, 'settings');
    const list = within(screen.getByRole('list', { name: 'Standing decisions' }));
    const trust = within(list.getByRole('listitem', { name: 'everything › all tools' }));
    expect(trust.getByText('Trust all tools')).toBeTruthy();
    expect(trust.getByText(/Suspended/)).toBeTruthy();
    await act(async () =>
      fireEvent.click(within(list.getByRole('listitem', { name: 'everything › get-sum' })).getByRole('button', { name: 'Revoke' })),
    );
    expect(host.of('revokeDecision')).toEqual([{ id: 'tool:srv-1:get-sum' }]);
    host.emit({ name: 'standingDecisionsChanged', payload: [] });
    expect(screen.getByText(/No standing decisions/)).toBeTruthy();

    const calls = within(screen.getByRole('list', { name: 'Tool calls' }));
    expect(calls.getByText('Interrupted — outcome unknown')).toBeTruthy();
    expect(calls.getAllByText(/asked by the model|run by you/).map((e) => e.textContent)).toHaveLength(2);

    host.emit({
      name: 'toolCallFinished',
      payload: { callId: 'c3', serverId: 'srv-1', tool: 'get-sum', origin: 'user', status: 'ok', durationMs: 1 },
    });
    await act(async () => undefined);
    expect(host.of('listToolAudit')).toHaveLength(2);
  });

  it('saves the ask timeout', async () => {
    const host = fakeHost({
      reply: (method, input) =>
        method === 'updateConsentSettings'
          ? { ok: true, value: input }
          : method === 'listToolAudit'
            ? { ok: true, value: { entries: [] } }
            : undefined,
    });
    await renderWithHost(<ConsentSettings />, host, 'settings');
    const field = screen.getByLabelText('Deny unanswered requests after (minutes)') as HTMLInputElement;
    expect(field.value).toBe('10');
    fireEvent.change(field, { target: { value: '0' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save timeout' })));
    expect(screen.getByRole('status').textContent).toBe('Enter whole minutes from 1 to 1440');
    fireEvent.change(field, { target: { value: '3' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save timeout' })));
    expect(host.of('updateConsentSettings')).toEqual([{ timeoutMinutes: 3 }]);
    expect(screen.getByRole('status').textContent).toBe('Saved');
  });
});
