import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Icon } from './Icon';
import './empty-state.css';

/**
 * What a page or list says while it has nothing: an icon, one line, and at most one action (absent
 * when the page's own main action, right above, is the one to take).
 */
export function EmptyState({ icon, children, action }: { icon: LucideIcon; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <Icon icon={icon} size={20} className="empty-state-icon" />
      <p className="muted">{children}</p>
      {action}
    </div>
  );
}
