import type { HandlersFor, questionMethods } from '@contract';
import type { QuestionQueue } from './question-queue';

/** The renderer's side of the queue: it answers questions (their kinds check and carry out the answer), never asks one. */
export function createQuestionHandlers(queue: QuestionQueue): HandlersFor<typeof questionMethods> {
  return {
    answerQuestion: async ({ id, answer }) => queue.answer(id, answer),
  };
}
