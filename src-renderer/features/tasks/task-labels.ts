import type { TaskKind, TaskState } from '@contract';

/** A task's state in words. */
export const TASK_STATE_LABELS: Record<TaskState, string> = {
  working: 'Working',
  input_required: 'Needs input',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  lost: 'Lost',
};

export const TASK_KIND_LABELS: Record<TaskKind, string> = {
  tool: 'Tool call',
  sampling: 'Sampling request',
  elicitation: 'Question for you',
};

/** True while the task may still change (and be cancelled). */
export function isRunningTask(state: TaskState): boolean {
  return state === 'working' || state === 'input_required';
}
