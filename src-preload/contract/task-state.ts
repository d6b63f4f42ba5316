/**
 * A task's state, and the part of a task a running tool call carries: their own module because both
 * tasks.ts (the task book) and tools.ts (a running call) need them, and tasks.ts needs tools.ts.
 */

/** The spec's task states. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** A task's state as Patchbay knows it: the spec's, or `lost` (the server no longer knows it, e.g. after it restarted). */
export type TaskState = TaskStatus | 'lost';
/** States a task never leaves. */
export const FINISHED_TASK_STATES: readonly TaskState[] = ['completed', 'failed', 'cancelled', 'lost'];

/** The part of a task a running tool call carries (the card shows it). */
export interface ToolCallTask {
  id: string;
  taskId: string;
  status: TaskState;
  statusMessage?: string;
}
