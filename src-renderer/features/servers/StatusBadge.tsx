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

/** A colored icon plus the status word (the word carries the meaning; the icon only decorates). */
export function StatusBadge({ runtime }: { runtime: ServerRuntime }) {
  return (
    <span className="status" data-status={runtime.status}>
      <Icon icon={STATUS_ICONS[runtime.status]} className="status-icon" />
      <span className="status-word">{STATUS_LABELS[runtime.status]}</span>
      <span className="muted status-since">
        {' '}
        since <RelativeTime iso={runtime.since} />
      </span>
    </span>
  );
}
