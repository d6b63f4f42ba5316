import { describe, expect, it } from 'vitest';
import type { HostSnapshot, Question, QuestionOf } from '@contract';
import { questionsOf, questionsSlice, type QuestionsState } from './questions-slice';

const roots = (id: string, requestedAt: string, serverId = 's1'): QuestionOf<'roots'> => ({
  kind: 'roots',
  id,
  groupId: id,
  serverId,
  serverName: 'files',
  requestedAt,
  expiresAt: '',
});
const elicitation = (id: string, requestedAt: string): QuestionOf<'elicitation'> => ({
  kind: 'elicitation',
  id,
  serverId: 's2',
  serverName: 'everything',
  mode: 'url',
  message: 'Sign in',
  url: 'https://example.com/',
  urlHost: 'example.com',
  requestedAt,
});

describe('questionsSlice', () => {
  it('fills from the snapshot, and keeps its state when the snapshot has no questions', () => {
    const questions = [roots('q1', '2026-01-01T00:00:00.000Z')];
    expect(questionsSlice.fromSnapshot!({ questions } as unknown as HostSnapshot)).toEqual({ questions });
    expect(questionsSlice.fromSnapshot!({} as HostSnapshot)).toEqual({});
  });

  it('keeps the oldest question of any kind first, each once; drops settled ones and those of a removed server', () => {
    let state: QuestionsState = questionsSlice.initial;
    const apply = (event: Parameters<NonNullable<typeof questionsSlice.apply>>[1]) =>
      (state = { ...state, ...questionsSlice.apply!(state, event) });
    apply({ name: 'questionAsked', payload: roots('q2', '2026-01-01T00:00:02.000Z') });
    apply({ name: 'questionAsked', payload: roots('q2', '2026-01-01T00:00:02.000Z') });
    // Asked earlier, arrived later: it goes in front.
    apply({ name: 'questionAsked', payload: elicitation('e1', '2026-01-01T00:00:01.000Z') });
    apply({ name: 'questionAsked', payload: roots('q3', '2026-01-01T00:00:03.000Z', 's3') });
    expect(state.questions.map((q: Question) => q.id)).toEqual(['e1', 'q2', 'q3']);
    expect(questionsOf(state, 'roots').map((q) => q.id)).toEqual(['q2', 'q3']);

    apply({ name: 'questionUpdated', payload: { ...elicitation('e1', '2026-01-01T00:00:01.000Z'), message: 'Sign in again' } });
    expect(questionsOf(state, 'elicitation')[0].message).toBe('Sign in again');
    apply({ name: 'questionSettled', payload: { id: 'e1', kind: 'elicitation', serverId: 's2', outcome: 'accepted' } });
    expect(state.questions.map((q) => q.id)).toEqual(['q2', 'q3']);
    apply({ name: 'serverRemoved', payload: { id: 's3' } });
    expect(state.questions.map((q) => q.id)).toEqual(['q2']);
  });
});
