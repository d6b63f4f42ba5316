import type { HandlersFor, questionMethods } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { QuestionQueue } from './question-queue';

/** The renderer's side of the queue: it answers questions (their kinds check and carry out the answer), never asks one. */
export function createQuestionHandlers(queue: QuestionQueue): HandlersFor<typeof questionMethods> {
  return {
    answerQuestion: async ({ id, answer }) => queue.answer(id, answer),
  };
}

/**
 * The one queue of questions to the user (consent, sampling, elicitation, "Share folders"): the areas
 * made after it ask, the renderer answers; its part of the snapshot lists the open ones.
 */
export function createQuestionsArea(deps: { events: HostEventBus; clock: Clock }) {
  const queue = new QuestionQueue(deps);
  return {
    name: 'questions',
    queue,
    handlers: createQuestionHandlers(queue),
    snapshot: () => ({ questions: queue.list() }),
  } as const;
}
