/**
 * A server's Tasks tab: the tasks running now and the recent ones — tool calls run as tasks on the
 * server, and the server's requests Patchbay runs as tasks — each with its state, the server's
 * message, how it ended, and Cancel while it runs. Fed by the host (snapshot, `taskChanged`), so a
 * reload shows the same list.
 */
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TaskView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { RelativeTime } from '../../ui/RelativeTime';
import { TaskResult } from './TaskResult';
import { TASK_KIND_LABELS, TASK_STATE_LABELS, isRunningTask, shownStatusMessage } from './task-labels';
import './tasks.css';

export function TasksPanel({ serverId, serverName }: { serverId: string; serverName: string }) {
  const api = useAppStore((s) => s.api);
  const live = useAppStore(useShallow((s) => Object.values(s.tasks).filter((task) => task.serverId === serverId)));
  const [older, setOlder] = useState<TaskView[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    api.listTasks({ serverId, limit: 200 }).then(
      (list) => current && setOlder(list),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, serverId]);

  const tasks = useMemo(() => {
    const byId = new Map(older.map((task) => [task.id, task]));
    for (const task of live) byId.set(task.id, task);
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [older, live]);
  const running = tasks.filter((task) => isRunningTask(task.status));
  const recent = tasks.filter((task) => !isRunningTask(task.status));

  return (
    <div className="tasks-panel">
      <p className="hint">
        Long work {serverName} runs as tasks (tools that say so), and requests it made of Patchbay as tasks. Quitting cancels the running
        ones.
      </p>
      {error && <p className="field-error">{error}</p>}
      <h3>Running</h3>
      {running.length === 0 ? <p className="muted">No task is running.</p> : <TaskList tasks={running} />}
      <h3>Recent</h3>
      {recent.length === 0 ? <p className="muted">No finished tasks yet.</p> : <TaskList tasks={recent} />}
    </div>
  );
}

function TaskList({ tasks }: { tasks: TaskView[] }) {
  return (
    <ul className="task-list" aria-label="Tasks">
      {tasks.map((task) => (
        <TaskRow key={task.id} task={task} />
      ))}
    </ul>
  );
}

function TaskRow({ task }: { task: TaskView }) {
  const api = useAppStore((s) => s.api);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = task.kind === 'tool' ? `${task.tool ?? 'tool'}` : TASK_KIND_LABELS[task.kind];
  const by =
    task.side === 'client'
      ? 'run by Patchbay for the server'
      : task.origin === 'model'
        ? 'asked by the model'
        : task.origin === 'app'
          ? 'asked by its app'
          : 'run by you';
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.cancelTask({ id: task.id });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="task-row" data-state={task.status} aria-label={`Task ${what}: ${TASK_STATE_LABELS[task.status]}`}>
      <div className="task-row-head">
        <strong>{what}</strong> <span className="muted">· {by}</span>
        <span className="task-state" data-state={task.status}>
          {TASK_STATE_LABELS[task.status]}
        </span>
        {isRunningTask(task.status) && (
          <button type="button" className="danger" disabled={busy} onClick={() => void cancel()}>
            Cancel
          </button>
        )}
      </div>
      {shownStatusMessage(task) && <p className="task-message">{shownStatusMessage(task)}</p>}
      {task.note && <p className="muted">{task.note}</p>}
      {error && <p className="field-error">{error}</p>}
      {task.kind === 'tool' && task.side === 'server' && (task.status === 'completed' || task.status === 'failed') && (
        <TaskResult task={task} />
      )}
      <p className="muted task-times">
        Started <RelativeTime iso={task.createdAt} />, last change <RelativeTime iso={task.updatedAt} /> · task {task.taskId}
      </p>
    </li>
  );
}
