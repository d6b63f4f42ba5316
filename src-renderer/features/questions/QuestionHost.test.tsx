import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionOf } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { consentRequest } from '../tools/test-support/tool-factories';
import { QuestionHost } from './QuestionHost';

afterEach(cleanup);

/** The dialogs are lazy chunks: the first one to show may take a moment to load on a busy machine. */
const LOAD = { timeout: 15_000 };

const elicitation: QuestionOf<'elicitation'> = {
  kind: 'elicitation',
  id: 'e1',
  serverId: 's2',
  serverName: 'notes',
  mode: 'form',
  message: 'Which notebook?',
  requestedSchema: { properties: { name: { type: 'string' } } },
  requestedAt: '2026-01-01T00:00:00.000Z',
};

describe('the one host of questions', () => {
  it('shows the oldest question of any kind, answers it through answerQuestion, then shows the next', { timeout: 30_000 }, async () => {
    // The tool question was asked later: the elicitation is in front, alone.
    const host = fakeHost({ questions: [elicitation, consentRequest({ requestedAt: '2026-01-01T00:00:05.000Z' })] });
    await renderWithHost(<QuestionHost />, host);
    const asks = within(await screen.findByRole('dialog', { name: 'notes asks…' }, LOAD));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await act(async () => fireEvent.click(asks.getByRole('button', { name: 'Decline' })));
    expect(host.of('answerQuestion')).toEqual([{ id: 'e1', answer: { kind: 'elicitation', action: 'decline' } }]);
    // It stays until the host says it settled.
    expect(screen.getByRole('dialog', { name: 'notes asks…' })).toBeTruthy();

    act(() => host.emit({ name: 'questionSettled', payload: { id: 'e1', kind: 'elicitation', serverId: 's2', outcome: 'declined' } }));
    const allow = within(await screen.findByRole('dialog', { name: 'Allow everything to run get-sum?' }, LOAD));
    await act(async () => fireEvent.click(allow.getByRole('button', { name: 'Deny' })));
    expect(host.of('answerQuestion').at(-1)).toEqual({ id: 'req-1', answer: { kind: 'tool', decision: 'deny' } });
  });

  it('says why a server’s request went away once no question is left', { timeout: 30_000 }, async () => {
    const host = fakeHost({ questions: [elicitation] });
    await renderWithHost(<QuestionHost />, host);
    await screen.findByRole('dialog', { name: 'notes asks…' }, LOAD);
    act(() => {
      host.emit({
        name: 'interactionSettled',
        payload: { id: 'e1', kind: 'elicitation', outcome: 'withdrawn', note: 'Server "notes" is stopped.' },
      });
      host.emit({ name: 'questionSettled', payload: { id: 'e1', kind: 'elicitation', serverId: 's2', outcome: 'withdrawn' } });
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Server "notes" is stopped.');
  });
});
