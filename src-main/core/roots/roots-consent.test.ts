import { describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '@contract';
import { HostEventBus } from '../events';
import { QuestionQueue } from '../questions/question-queue';
import { RootsConsentBroker, type RootsConsentAnswer } from './roots-consent';

function broker(timeoutMs = 60_000) {
  const events = new HostEventBus();
  const seen: HostEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const answers: Array<{ serverId: string; answer: RootsConsentAnswer }> = [];
  const settled: string[] = [];
  const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
  const b = new RootsConsentBroker({
    questions: new QuestionQueue({ events, clock }),
    clock,
    timeoutMs,
    onAnswer: (request, answer) => answers.push({ serverId: request.serverId, answer }),
    onSettled: (_request, outcome) => settled.push(outcome),
  });
  return { b, seen, answers, settled };
}

const files = { id: 's1', name: 'files' };

describe('RootsConsentBroker', () => {
  it('asks once per server, lets later requests join, and settles exactly once with the answer', async () => {
    const { b, seen, answers, settled } = broker();
    const first = b.ask(files);
    const second = b.ask(files);
    expect(b.list()).toHaveLength(1);
    const [request] = b.list();
    expect(request).toMatchObject({
      serverId: 's1',
      serverName: 'files',
      requestedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:01:00.000Z',
    });
    expect(seen).toEqual([{ name: 'questionAsked', payload: request }]);

    b.answer(request.id, { share: true, rootIds: ['r1'] });
    expect(await first).toBe('shared');
    expect(await second).toBe('shared');
    expect(answers).toEqual([{ serverId: 's1', answer: { share: true, rootIds: ['r1'] } }]);
    expect(settled).toEqual(['shared']);
    expect(seen.at(-1)).toEqual({ name: 'questionSettled', payload: { id: request.id, kind: 'roots', serverId: 's1', outcome: 'shared' } });
    expect(() => b.answer(request.id, { share: false })).toThrow(/already answered/);
    expect(answers).toHaveLength(1);
    expect(b.list()).toEqual([]);
  });

  it('counts an unanswered question as "Don\'t share" after the timeout, without storing a decision', async () => {
    vi.useFakeTimers();
    try {
      const { b, answers, settled } = broker(1000);
      const outcome = b.ask(files);
      vi.advanceTimersByTime(999);
      expect(b.list()).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(await outcome).toBe('timed-out');
      expect(answers).toEqual([]);
      expect(settled).toEqual(['timed-out']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('withdraws the question of a server that went away, and settles everything on shutdown', async () => {
    const { b, settled } = broker();
    const gone = b.ask(files);
    const other = b.ask({ id: 's2', name: 'other' });
    b.withdraw('s1');
    expect(await gone).toBe('withdrawn');
    expect(b.openFor('s1')).toBeUndefined();
    expect(b.openFor('s2')).toBeDefined();
    b.dispose();
    expect(await other).toBe('shutdown');
    expect(settled).toEqual(['withdrawn', 'shutdown']);
    // A new question after a settled one is a new question.
    void b.ask(files);
    expect(b.list()).toHaveLength(1);
    b.dispose();
  });

  it('groups questions asked while one is open, and answers a whole group at once (told to servers once)', async () => {
    const events = new HostEventBus();
    const answers: string[] = [];
    const batches: string[][] = [];
    let current: string[] | undefined;
    const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
    const b = new RootsConsentBroker({
      questions: new QuestionQueue({ events, clock }),
      clock,
      timeoutMs: 60_000,
      onAnswer: (request) => (current ?? answers).push(request.serverId),
      batch: (answerAll) => {
        current = [];
        answerAll();
        batches.push(current);
        current = undefined;
      },
    });
    const asks = ['s1', 's2', 's3'].map((id) => b.ask({ id, name: id }));
    const [first, second, third] = b.list();
    expect(first.groupId).toBe(first.id);
    expect([second.groupId, third.groupId]).toEqual([first.id, first.id]);

    // One answered on its own; the rest together, in one batch.
    b.answer(second.id, { share: false });
    expect(answers).toEqual(['s2']);
    expect(b.answerGroup(first.groupId, { share: true, rootIds: ['r1'] }).map((r) => r.serverId)).toEqual(['s1', 's3']);
    expect(batches).toEqual([['s1', 's3']]);
    expect(await Promise.all(asks)).toEqual(['shared', 'declined', 'shared']);
    expect(() => b.answerGroup(first.groupId, { share: false })).toThrow(/already answered/);

    // Once the group is settled, the next question starts a new one.
    void b.ask({ id: 's4', name: 's4' });
    const [next] = b.list();
    expect(next.groupId).toBe(next.id);
    expect(next.groupId).not.toBe(first.groupId);
    b.dispose();
  });
});
