/**
 * Answers to questions (the one `answerQuestion`), one helper per kind, for the suites that drive the
 * whole host: each takes the API and what the kind's dialog sends.
 */
import type { AnswerOf, HostApi } from '@contract';

type Input<K extends AnswerOf<'tool' | 'elicitation' | 'roots'>> = { id: string } & Omit<K, 'kind'>;

export const answerTool = (api: HostApi, { id, ...answer }: Input<AnswerOf<'tool'>>) =>
  api.answerQuestion({ id, answer: { kind: 'tool', ...answer } });

export const approveSampling = (
  api: HostApi,
  {
    id,
    ...answer
  }: { id: string } & Omit<Extract<AnswerOf<'sampling'>, { action: 'approve' }>, 'kind' | 'action' | 'edits'> & {
      edits?: Extract<AnswerOf<'sampling'>, { action: 'approve' }>['edits'];
    },
) => api.answerQuestion({ id, answer: { kind: 'sampling', action: 'approve', ...answer } });

export const sendSampling = (api: HostApi, { id, text }: { id: string; text: string }) =>
  api.answerQuestion({ id, answer: { kind: 'sampling', action: 'send', text } });

export const rejectSampling = (api: HostApi, { id }: { id: string }) =>
  api.answerQuestion({ id, answer: { kind: 'sampling', action: 'reject' } });

export const answerElicitation = (api: HostApi, { id, ...answer }: Input<AnswerOf<'elicitation'>>) =>
  api.answerQuestion({ id, answer: { kind: 'elicitation', ...answer } });

export const answerRoots = (api: HostApi, { id, ...answer }: Input<AnswerOf<'roots'>>) =>
  api.answerQuestion({ id, answer: { kind: 'roots', ...answer } });
