import type { ServerRuntime } from '@contract';
import { RelativeTime } from '../../ui/RelativeTime';
import { STATUS_LABELS } from './server-status';
import { CircleAlert, CircleCheck, CircleStop, LoaderCircle, OctagonX, type LucideIcon } from 'lucide-react';
import { Icon } from '../../ui/Icon';

const STATUS_ICONS: Record<ServerRuntime['status'], LucideIcon> = {
  ready: CircleCheck,
  starting: LoaderCircle,
  stopped: CircleStop,
  error: CircleAlert,
  crashed: OctagonX,
};

/**
 * A colored icon plus the status word (the word carries the meaning; the icon only decorates). In a
 * server row (`compact`) "since when" moves to the tooltip and screen readers.
 */
export function StatusBadge({ runtime, compact = false }: { runtime: ServerRuntime; compact?: boolean }) {
  return (
    <span
      className="status"
      data-status={runtime.status}
      title={compact ? `${STATUS_LABELS[runtime.status]} since ${new Date(runtime.since).toLocaleString()}` : undefined}
    >
      <Icon icon={STATUS_ICONS[runtime.status]} className="status-icon" />
      <span className="status-word">{STATUS_LABELS[runtime.status]}</span>
      <span className={compact ? 'visually-hidden' : 'muted status-since'}>
        {' '}
        since <RelativeTime iso={runtime.since} />
      </span>
    </span>
  );
}
