import type { ServerRuntime } from '../../../src-preload/contract';
import { RelativeTime } from '../../ui/RelativeTime';
import { STATUS_LABELS } from './server-status';

/** A colored dot plus the status word (the word carries the meaning; the dot only decorates). */
export function StatusBadge({ runtime }: { runtime: ServerRuntime }) {
  return (
    <span className="status" data-status={runtime.status}>
      <span className="status-dot" aria-hidden="true" />
      <span className="status-word">{STATUS_LABELS[runtime.status]}</span>
      <span className="muted status-since">
        {' '}
        since <RelativeTime iso={runtime.since} />
      </span>
    </span>
  );
}
