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

/**
 * The server's status message worth showing now: while the task runs, its progress ("Generating…");
 * once it failed or was cancelled, the why. A completed task's last progress message is stale (it
 * would still say "Generating…" under a finished result), so none.
 */
export function shownStatusMessage(task: { status: TaskState; statusMessage?: string }): string | undefined {
  if (!task.statusMessage || task.status === 'completed') return undefined;
  return task.statusMessage;
}
