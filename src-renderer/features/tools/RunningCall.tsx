import { useState } from 'react';
import type { RunningToolCall } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { useNow } from '../../ui/use-now';
import { TaskLine } from '../tasks/TaskLine';
import { formatElapsed } from './result/format';
import { Progress } from '../../ui/Progress';

export interface RunningCallProps {
  call: RunningToolCall;
  /** Sends the cancellation; resolves once the host took it. */
  onCancel(callId: string): Promise<unknown>;
}

/** A call in flight: how long it has run, its progress (bar + message) when the server reports any, and Cancel. */
export function RunningCall({ call, onCancel }: RunningCallProps) {
  const now = useNow(250);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { progress } = call;
  const asked = call.origin === 'model' ? ' (asked by the model)' : call.origin === 'app' ? ' (asked by its app)' : '';
  const label = `${call.tool} on ${call.serverName}${asked}`;
  const cancel = async () => {
    setCancelling(true);
    setError(null);
    try {
      await onCancel(call.callId);
    } catch (failure) {
      setError(messageOf(failure));
      setCancelling(false);
    }
  };
  return (
    <div className="running-call" role="group" aria-label={`Running: ${label}`}>
      <div className="running-call-head">
        <span className="spinner" aria-hidden="true" />
        <span>
          Running {label} · <span className="running-elapsed">{formatElapsed(Math.max(0, now - Date.parse(call.startedAt)))}</span>
        </span>
        <button type="button" className="danger" disabled={cancelling} onClick={() => void cancel()}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      {progress && (
        <div className="running-progress">
          <Progress label={`Progress of ${call.tool}`} value={progress.total ? progress.progress : undefined} max={progress.total ?? 0} />
          <span className="muted">
            {progress.total ? `${progress.progress} of ${progress.total}` : `${progress.progress}`}
            {progress.message && ` — ${progress.message}`}
          </span>
        </div>
      )}
      {call.task && <TaskLine task={call.task} />}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
