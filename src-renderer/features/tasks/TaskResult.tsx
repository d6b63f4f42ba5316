/**
 * A finished tool task's result in the Tasks tab: what the call returned, as the Tools tab showed it,
 * fetched from the host when opened (the host keeps it with the task, so leaving the Tools tab, a reload
 * or a restart does not lose it).
 */
import { useState } from 'react';
import type { TaskView, ToolCallOutcome } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { ToolResultView } from '../tools/result/ToolResultView';

type Loaded =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'done'; outcome: ToolCallOutcome | null } | { kind: 'error'; message: string };

export function TaskResult({ task }: { task: TaskView }) {
  const api = useAppStore((s) => s.api);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'idle' });
  const open = (isOpen: boolean) => {
    if (!isOpen || loaded.kind === 'loading' || loaded.kind === 'done') return;
    setLoaded({ kind: 'loading' });
    api.getTaskResult({ id: task.id }).then(
      (outcome) => setLoaded({ kind: 'done', outcome }),
      (failure: unknown) => setLoaded({ kind: 'error', message: messageOf(failure) }),
    );
  };
  return (
    <details className="task-result" onToggle={(e) => open(e.currentTarget.open)}>
      <summary>Result</summary>
      {loaded.kind === 'loading' && <p className="muted">Loading the result…</p>}
      {loaded.kind === 'error' && <p className="field-error">{loaded.message}</p>}
      {loaded.kind === 'done' &&
        (loaded.outcome ? (
          <ToolResultView
            outcome={loaded.outcome}
            load={(part, offset, limit) =>
              api.getToolResultPart({ callId: loaded.outcome!.callId, part, offset, ...(limit ? { limit } : {}) })
            }
          />
        ) : (
          <p className="muted">
            Patchbay did not keep this result: it keeps what your own runs in the Tools tab return. Run {task.tool ?? 'the tool'} again to
            see one.
          </p>
        ))}
    </details>
  );
}
