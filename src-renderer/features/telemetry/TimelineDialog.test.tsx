import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { protocolLinesFilter, type TimelineSpan, type TurnTimeline } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { AppStoreContext } from '../../stores/use-app-store';
import { TimelineDialog } from './TimelineDialog';

afterEach(cleanup);

/** A turn of `calls` calls of `echo` on server s1, one after another, each with its request id. */
function turn(calls: number): TurnTimeline {
  const spans: TimelineSpan[] = [{ id: 't', kind: 'turn', label: 'Turn', startMs: 0, durationMs: 10 * calls + 20 }];
  spans.push({ id: 'm1', parentId: 't', kind: 'model', label: 'claude', startMs: 0, durationMs: 10, model: 'claude', inputTokens: 5 });
  for (let i = 0; i < calls; i++) {
    spans.push({
      id: `c${i}`,
      parentId: 't',
      kind: 'tool',
      label: `Echo › echo ${i}`,
      startMs: 10 + 10 * i,
      durationMs: 10,
      serverId: 's1',
      callId: `call-${i}`,
      requestId: String(i + 2),
      status: 'ok',
    });
  }
  spans.push({
    id: 's',
    parentId: 'c0',
    kind: 'sampling',
    label: 'Sampling request',
    startMs: 12,
    durationMs: 5,
    serverId: 's1',
    requestId: '7',
  });
  return { conversationId: 'conv', startedAt: new Date(0).toISOString(), spans };
}

async function open(timeline: TurnTimeline) {
  const host = fakeHost({ replies: { getTurnTimeline: () => timeline } });
  const view = await renderWithHost(<TimelineDialog open onOpenChange={() => undefined} target={{ callId: 'call-0' }} />, host, 'chat');
  const list = await screen.findByRole('list', { name: 'Turn timeline' });
  return { host, view, list };
}

describe('the Timeline dialog', () => {
  it('keeps a 200-call turn out of the page but a window of rows, each saying where it is in the turn', async () => {
    const { list } = await open(turn(200));
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('203');
    expect(rows[1]!.getAttribute('aria-posinset')).toBe('2');
    expect(screen.getByText(/203 bars/)).toBeTruthy();
    // One Tab stop in the waterfall: the first bar.
    const stops = within(list)
      .getAllByRole('button')
      .filter((b) => b.tabIndex === 0);
    expect(stops.map((b) => b.getAttribute('aria-label'))).toEqual([expect.stringMatching(/^Turn: Turn, starts at 0 ms/)]);
  });

  it('moves between bars with the arrow keys, Home and End, and says the selected bar’s numbers', async () => {
    // Every row of a 10-call turn is in the page (jsdom cannot scroll a window of rows into view).
    const { list } = await open(turn(10));
    const first = within(list).getByRole('button', { name: /^Turn: / });
    first.focus();
    await act(async () => fireEvent.keyDown(first, { key: 'ArrowDown' }));
    const model = within(list).getByRole('button', { name: /^Model request: claude, .*5 tokens in/ });
    expect(document.activeElement).toBe(model);
    expect(model.tabIndex).toBe(0);
    expect(first.tabIndex).toBe(-1);
    await act(async () => fireEvent.keyDown(model, { key: 'End' }));
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Sampling: Sampling request/);
    await act(async () => fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' }));
    const last = document.activeElement as HTMLElement;
    expect(last.getAttribute('aria-label')).toMatch(/^Tool call: Echo › echo 9, starts at 100 ms, takes 10 ms, succeeded$/);
    await act(async () => fireEvent.click(last));
    expect(last.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe(last.getAttribute('aria-label'));
    expect(within(screen.getByRole('group', { name: 'Go to' })).getByRole('button', { name: 'Protocol log' })).toBeTruthy();
    await act(async () => fireEvent.keyDown(last, { key: 'Home' }));
    expect(document.activeElement).toBe(within(list).getByRole('button', { name: /^Turn: / }));
  });

  it('a sampling bar leads to its request’s lines in the server’s Protocol log', async () => {
    const { list, view } = await open(turn(2));
    await act(async () => fireEvent.click(within(list).getByRole('button', { name: /^Sampling: Sampling request/ })));
    const goTo = screen.getByRole('group', { name: 'Go to' });
    expect(within(goTo).queryByRole('button', { name: 'Audit entry' })).toBeNull();
    await act(async () => fireEvent.click(within(goTo).getByRole('button', { name: 'Protocol log' })));
    expect(view.store.getState().intent).toMatchObject({ kind: 'filter-protocol-log', target: 'sampling/createMessage #7 (' });
  });

  it('asks again at each opening; the bars shown meanwhile are said busy', async () => {
    let answer: (t: TurnTimeline) => void = () => undefined;
    const host = fakeHost({ replies: { getTurnTimeline: () => new Promise<TurnTimeline>((resolve) => (answer = resolve)) } });
    const props = { onOpenChange: () => undefined, target: { callId: 'call-0' } };
    const view = await renderWithHost(<TimelineDialog open {...props} />, host, 'chat');
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => answer(turn(2)));
    expect(screen.getByRole('list', { name: 'Turn timeline' }).getAttribute('aria-busy')).toBeNull();
    const again = (open: boolean) =>
      view.rerender(
        <AppStoreContext.Provider value={view.store}>
          <TimelineDialog open={open} {...props} />
        </AppStoreContext.Provider>,
      );
    again(false);
    again(true);
    await act(async () => undefined);
    expect(host.of('getTurnTimeline')).toHaveLength(2);
    expect(screen.getByRole('list', { name: 'Turn timeline' }).getAttribute('aria-busy')).toBe('true');
    await act(async () => answer(turn(3)));
    const list = screen.getByRole('list', { name: 'Turn timeline' });
    expect(list.getAttribute('aria-busy')).toBeNull();
    expect(within(list).getAllByRole('listitem')).toHaveLength(6);
  });
});

describe('protocolLinesFilter', () => {
  const call: TimelineSpan = { id: 'c', kind: 'tool', label: 'x', startMs: 0, serverId: 's1', requestId: '7' };
  it('finds a request’s line and its answer’s, by method and id', () => {
    expect(protocolLinesFilter(call)).toBe('tools/call #7 (');
    expect(protocolLinesFilter({ ...call, kind: 'sampling' })).toBe('sampling/createMessage #7 (');
    expect(protocolLinesFilter({ ...call, kind: 'elicitation' })).toBe('elicitation/create #7 (');
  });
  it('ends at the dash for a request an app asked for (its lines name the app after the id)', () => {
    expect(protocolLinesFilter({ ...call, requestInitiator: 'the app of Lab' })).toBe('tools/call #7 —');
  });
  it('has nothing to find for a bar without a request', () => {
    expect(protocolLinesFilter({ ...call, requestId: undefined })).toBeUndefined();
    expect(protocolLinesFilter({ ...call, kind: 'consent' })).toBeUndefined();
  });
});
