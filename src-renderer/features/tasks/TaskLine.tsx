import type { ToolCallTask } from '@contract';
import { shownStatusMessage, TASK_STATE_LABELS } from './task-labels';
import './tasks.css';

/** Where a call that runs as a task stands: its state and the server's message, as they change. */
export function TaskLine({ task }: { task: ToolCallTask }) {
  const message = shownStatusMessage(task);
  return (
    <p className="task-line" role="status" aria-label="Task status" data-state={task.status}>
      <span className="result-kind">Task</span> <strong>{TASK_STATE_LABELS[task.status]}</strong>
      {message && <span className="muted"> — {message}</span>}
    </p>
  );
}
