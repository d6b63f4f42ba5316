import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '@contract';
import { HostEventBus } from '../events';
import { QuestionQueue, type QuestionHooks, type Settlement } from './question-queue';

/** A queue on a real event bus, recording what the renderer would be told. */
function queue() {
  const events = new HostEventBus();
  const seen: HostEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const q = new QuestionQueue({ events, clock: { now: () => new Date('2026-01-01T00:00:00Z') } });
  const told = (name: HostEvent['name']) => seen.filter((e) => e.name === name).map((e) => e.payload);
  return { q, seen, told };
}

/** A "Share folders" question (the smallest kind) whose every end is recorded in `ends`. */
function roots(q: QuestionQueue, id: string, serverId: string, requestedAt: string, options: Parameters<QuestionQueue['ask']>[2] = {}) {
  const ends: string[] = [];
  const ended = (outcome: Settlement<'roots'>['outcome'], note?: string): Settlement<'roots'> => ({
    outcome,
    ...(note ? { note } : {}),
    effects: () => ends.push(note ? `${outcome}: ${note}` : outcome),
  });
  const hooks: QuestionHooks<'roots'> = {
    answer: ({ share }) => ended(share ? 'shared' : 'declined'),
    timedOut: () => ended('timed-out'),
    withdrawn: (note) => ended('withdrawn', note),
    shutdown: () => ended('shutdown'),
  };
  const asked = q.ask<'roots'>({ kind: 'roots', id, groupId: id, serverId, serverName: serverId, requestedAt }, hooks, options);
  return { asked, ends };
}

afterEach(() => vi.useRealTimers());

describe('the one queue of questions', () => {
  it('lists the pending questions oldest first, whatever order they were asked in, and tells the renderer each', () => {
    const { q, told } = queue();
    roots(q, 'b', 's1', '2026-01-01T00:00:02.000Z');
    roots(q, 'a', 's2', '2026-01-01T00:00:01.000Z');
    roots(q, 'c', 's3', '2026-01-01T00:00:02.000Z');
    expect(q.list().map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(q.list('roots').map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(q.list('tool')).toEqual([]);
    expect(told('questionAsked').map((p) => (p as { id: string }).id)).toEqual(['b', 'a', 'c']);
    // Plain data: what crosses the contract is what the queue lists.
    expect(JSON.parse(JSON.stringify(q.list()))).toEqual(q.list());
  });

  it('settles a question exactly once: a second answer is refused and changes nothing', () => {
    const { q, told } = queue();
    const { ends } = roots(q, 'a', 's1', '2026-01-01T00:00:00.000Z');
    q.answer('a', { kind: 'roots', share: true });
    expect(ends).toEqual(['shared']);
    expect(() => q.answer('a', { kind: 'roots', share: false })).toThrow(/no longer pending.*already answered/);
    expect(q.settle('a', { outcome: 'declined' })).toBe(false);
    q.withdrawServer('s1', 'gone');
    q.shutdown();
    expect(ends).toEqual(['shared']);
    expect(told('questionSettled')).toEqual([{ id: 'a', kind: 'roots', serverId: 's1', outcome: 'shared' }]);
    expect(q.list()).toEqual([]);
  });

  it('refuses an answer of another kind, or one its kind refuses, and keeps the question pending', () => {
    const { q, told } = queue();
    roots(q, 'a', 's1', '2026-01-01T00:00:00.000Z');
    expect(() => q.answer('a', { kind: 'tool', decision: 'allow_once' })).toThrow('This question is a roots question, not a tool one.');
    const refusing: QuestionHooks<'roots'> = {
      answer: () => {
        throw new Error('not like this');
      },
      withdrawn: () => ({ outcome: 'withdrawn' }),
      shutdown: () => ({ outcome: 'shutdown' }),
    };
    q.ask<'roots'>(
      { kind: 'roots', id: 'b', groupId: 'b', serverId: 's2', serverName: 's2', requestedAt: '2026-01-01T00:00:01.000Z' },
      refusing,
    );
    expect(() => q.answer('b', { kind: 'roots', share: true })).toThrow('not like this');
    expect(q.list().map((x) => x.id)).toEqual(['a', 'b']);
    expect(told('questionSettled')).toEqual([]);
  });

  it('keeps a question answered by a first step pending, and sends its changes', () => {
    const { q, told } = queue();
    let steps = 0;
    const hooks: QuestionHooks<'roots'> = {
      answer: ({ share }) => (++steps === 1 ? undefined : { outcome: share ? 'shared' : 'declined' }),
      withdrawn: () => ({ outcome: 'withdrawn' }),
      shutdown: () => ({ outcome: 'shutdown' }),
    };
    const asked = q.ask<'roots'>(
      { kind: 'roots', id: 'a', groupId: 'a', serverId: 's1', serverName: 's1', requestedAt: '2026-01-01T00:00:00.000Z' },
      hooks,
    );
    q.answer('a', { kind: 'roots', share: true });
    expect(q.get('a', 'roots')).toBeDefined();
    q.update({ ...asked, serverName: 'renamed' });
    expect(told('questionUpdated')).toEqual([{ ...asked, serverName: 'renamed' }]);
    q.answer('a', { kind: 'roots', share: false });
    expect(q.get('a', 'roots')).toBeUndefined();
    // A change to a settled question is not sent.
    q.update({ ...asked, serverName: 'late' });
    expect(told('questionUpdated')).toHaveLength(1);
  });

  it('answers a question nobody answers in time with its kind’s default, and tells the renderer', () => {
    vi.useFakeTimers();
    const { q, told } = queue();
    const { asked, ends } = roots(q, 'a', 's1', '2026-01-01T00:00:00.000Z', { timeoutMs: 1000 });
    expect(asked.expiresAt).toBe('2026-01-01T00:00:01.000Z');
    vi.advanceTimersByTime(999);
    expect(ends).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ends).toEqual(['timed-out']);
    expect(told('questionSettled')).toEqual([{ id: 'a', kind: 'roots', serverId: 's1', outcome: 'timed-out' }]);
    expect(() => q.answer('a', { kind: 'roots', share: true })).toThrow(/no longer pending/);
    // An answered question's timer is stopped: nothing happens when it would have fired.
    const { ends: answered } = roots(q, 'b', 's1', '2026-01-01T00:00:00.000Z', { timeoutMs: 1000 });
    q.answer('b', { kind: 'roots', share: false });
    vi.advanceTimersByTime(5000);
    expect(answered).toEqual(['declined']);
  });

  it('withdraws the questions of a server that disconnects (of the kinds named), and an aborted request’s at once', () => {
    const { q, told } = queue();
    const gone = roots(q, 'a', 's1', '2026-01-01T00:00:00.000Z');
    const stays = roots(q, 'b', 's2', '2026-01-01T00:00:01.000Z');
    const controller = new AbortController();
    const cancelled = roots(q, 'c', 's3', '2026-01-01T00:00:02.000Z', { signal: controller.signal, cancelNote: 'the server cancelled' });
    q.withdrawServer('s1', 'server "s1" is stopped', ['tool']);
    expect(gone.ends).toEqual([]);
    q.withdrawServer('s1', 'server "s1" is stopped');
    expect(gone.ends).toEqual(['withdrawn: server "s1" is stopped']);
    controller.abort();
    expect(cancelled.ends).toEqual(['withdrawn: the server cancelled']);
    expect(stays.ends).toEqual([]);
    expect(q.list().map((x) => x.id)).toEqual(['b']);
    expect(told('questionSettled')).toEqual([
      { id: 'a', kind: 'roots', serverId: 's1', outcome: 'withdrawn', note: 'server "s1" is stopped' },
      { id: 'c', kind: 'roots', serverId: 's3', outcome: 'withdrawn', note: 'the server cancelled' },
    ]);
  });

  it('at quit answers every pending question of the kinds closed, and says later ones of those kinds are refused', () => {
    const { q } = queue();
    const pending = roots(q, 'a', 's1', '2026-01-01T00:00:00.000Z');
    q.shutdown(['tool']);
    expect(q.isClosed('tool')).toBe(true);
    expect(q.isClosed('roots')).toBe(false);
    expect(pending.ends).toEqual([]);
    q.shutdown();
    expect(pending.ends).toEqual(['shutdown']);
    expect(q.isClosed('roots')).toBe(true);
    expect(q.list()).toEqual([]);
  });
});
