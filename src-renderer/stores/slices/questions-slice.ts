import type { Question, QuestionKind, QuestionOf } from '@contract';
import type { StoreSlice } from './slice';

/**
 * The questions waiting for the user (the core's one queue keeps them): tool consent, sampling,
 * elicitation, "Share folders". Oldest first: the shell shows the first, one dialog at a time.
 */
export interface QuestionsState {
  questions: Question[];
}

/** Inserted by time, so the oldest stays first whatever order the events arrive in. */
function insert(questions: Question[], question: Question): Question[] {
  const at = questions.findIndex((q) => q.requestedAt > question.requestedAt);
  return at < 0 ? [...questions, question] : [...questions.slice(0, at), question, ...questions.slice(at)];
}

export const questionsSlice: StoreSlice<QuestionsState> = {
  initial: { questions: [] },
  // Older hosts (and partial test snapshots) may have no questions: keep what we have.
  fromSnapshot: (snapshot) => (snapshot.questions ? { questions: snapshot.questions } : {}),
  apply: (state, event) => {
    switch (event.name) {
      case 'questionAsked':
        if (state.questions.some((q) => q.id === event.payload.id)) return undefined;
        return { questions: insert(state.questions, event.payload) };
      case 'questionUpdated':
        return { questions: state.questions.map((q) => (q.id === event.payload.id ? event.payload : q)) };
      case 'questionSettled':
        return { questions: state.questions.filter((q) => q.id !== event.payload.id) };
      case 'serverRemoved': {
        // The core withdraws a removed server's questions too; this closes their dialogs at once.
        const id = event.payload.id;
        if (!state.questions.some((q) => q.serverId === id)) return undefined;
        return { questions: state.questions.filter((q) => q.serverId !== id) };
      }
      default:
        return undefined;
    }
  },
};

/** The pending questions of one kind, oldest first. */
export function questionsOf<K extends QuestionKind>(state: QuestionsState, kind: K): QuestionOf<K>[] {
  return state.questions.filter((q): q is QuestionOf<K> => q.kind === kind);
}
