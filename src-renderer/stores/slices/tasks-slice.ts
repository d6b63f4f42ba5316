import type { TaskView } from '@contract';
import type { StoreSlice } from './slice';

/** Tasks the host knows of (the newest ones: the snapshot's, plus every change since), by record id. */
export interface TasksState {
  tasks: Record<string, TaskView>;
}

export const tasksSlice: StoreSlice<TasksState> = {
  initial: { tasks: {} },
  // Partial test snapshots may have no tasks section: keep what we have.
  fromSnapshot: (snapshot) => (snapshot.tasks ? { tasks: Object.fromEntries(snapshot.tasks.recent.map((task) => [task.id, task])) } : {}),
  apply: (state, event) => {
    if (event.name !== 'taskChanged') return undefined;
    return { tasks: { ...state.tasks, [event.payload.id]: event.payload } };
  },
};
