import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InteractionAuditLog, prettyJson, type InteractionAuditLogProps } from './InteractionAuditLog';
import { auditEntry } from './test-support/audit-entry';

afterEach(cleanup);

const props = (over: Partial<InteractionAuditLogProps> = {}): InteractionAuditLogProps => ({
  entries: [],
  hasMore: false,
  loading: false,
  error: null,
  onMore: () => undefined,
  ...over,
});
const preWith = (text: string) => (_: string, el: Element | null) => el?.tagName === 'PRE' && el.textContent === text;

describe('the server requests list', () => {
  it('summarises each entry: time, server, kind, tool call, outcome and decider, in words', () => {
    const entries = [
      auditEntry({ seq: 3, kind: 'elicitation', outcome: 'declined', toolCall: undefined, response: '{"action":"decline"}' }),
      auditEntry({
        seq: 2,
        outcome: 'blocked',
        decidedBy: 'policy',
        response: undefined,
        note: 'Sampling is blocked for server "everything" in Patchbay.',
      }),
      auditEntry({ seq: 1, outcome: 'shutdown', decidedBy: 'host', response: undefined }),
    ];
    render(<InteractionAuditLog {...props({ entries })} />);
    const items = within(screen.getByRole('list', { name: 'Server requests' })).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('summary')?.textContent)).toEqual([
      '5 minutes ago · everything · elicitation (information) · outside a tool call · Declined · decided by you',
      "5 minutes ago · everything · sampling (LLM completion) · in trigger-sampling-request · Blocked · decided by the server's policy",
      '5 minutes ago · everything · sampling (LLM completion) · in trigger-sampling-request · Ended when Patchbay quit · decided by Patchbay',
    ]);
    expect(items[0].querySelector('summary time')?.getAttribute('datetime')).toBe(entries[0].requestedAt);
    expect(screen.queryByRole('button', { name: 'Show older requests' })).toBeNull();
  });

  it('expands to the pretty-printed request and response, and the note', () => {
    const entry = auditEntry({ note: 'response edited by the user' });
    render(<InteractionAuditLog {...props({ entries: [entry, auditEntry({ seq: 0, response: undefined })] })} />);
    const [first, second] = screen.getAllByRole('listitem');
    const details = first.querySelector('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(first.querySelector('summary')!);
    expect(details.open).toBe(true);
    const item = within(first);
    expect(item.getByText(preWith(JSON.stringify({ asked: { maxTokens: 50 }, approved: { model: 'm1' } }, null, 2)))).toBeTruthy();
    expect(item.getByText(preWith('{\n  "text": "42",\n  "model": "m1"\n}'))).toBeTruthy();
    expect(item.getByText('response edited by the user')).toBeTruthy();
    expect(within(second).getByText('Nothing was sent back.')).toBeTruthy();
    expect(within(second).queryByText('Note')).toBeNull();
  });

  it('says at which step a request was rejected, and lists each step with who took it', () => {
    const at = new Date().toISOString();
    const entries = [
      auditEntry({
        seq: 2,
        outcome: 'rejected',
        response: undefined,
        steps: [
          { stage: 'request', action: 'approved', by: 'policy', at },
          { stage: 'response', action: 'rejected', by: 'user', at },
        ],
      }),
      auditEntry({
        seq: 1,
        outcome: 'rejected',
        response: undefined,
        request: '{"asked":{"maxTokens":50}}',
        steps: [{ stage: 'request', action: 'rejected', by: 'user', at }],
      }),
    ];
    render(<InteractionAuditLog {...props({ entries })} />);
    const [late, early] = [...screen.getByRole('list', { name: 'Server requests' }).children] as HTMLElement[];
    expect(late.querySelector('.audit-outcome')?.textContent).toBe('Rejected at the response step');
    expect(early.querySelector('.audit-outcome')?.textContent).toBe('Rejected at the request step');
    const steps = (item: HTMLElement) =>
      within(within(item).getByRole('list', { name: 'Steps' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(steps(late)).toEqual([
      expect.stringMatching(/^Request approved by the server's policy/),
      expect.stringMatching(/^Response rejected by you/),
    ]);
    expect(steps(early)).toEqual([expect.stringMatching(/^Request rejected by you/)]);
    expect(early.textContent).not.toMatch(/approved/i);
  });

  it('pages with "Show older requests", disabled while loading', () => {
    const onMore = vi.fn();
    const { rerender } = render(<InteractionAuditLog {...props({ entries: [auditEntry()], hasMore: true, onMore })} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show older requests' }));
    expect(onMore).toHaveBeenCalledTimes(1);
    rerender(<InteractionAuditLog {...props({ entries: [auditEntry()], hasMore: true, loading: true, onMore })} />);
    expect((screen.getByRole('button', { name: 'Loading…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when there is nothing yet, and shows a load error as an alert', () => {
    const { rerender } = render(<InteractionAuditLog {...props({ loading: true })} />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    rerender(<InteractionAuditLog {...props()} />);
    expect(screen.getByText('No server requests yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Server requests' })).toBeNull();
    rerender(<InteractionAuditLog {...props({ error: 'The host is not reachable' })} />);
    expect(screen.getByRole('alert').textContent).toBe('Could not load server requests: The host is not reachable');
  });

  it('shows text that is not JSON as it is', () => {
    expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});
