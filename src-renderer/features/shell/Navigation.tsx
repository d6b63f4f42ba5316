import appIcon from '../../../resources/icon.svg';
import type { Page } from '../../stores/app-store';
import { isMac, shortcutKeys } from './shortcuts';
import { FolderTree, MessageSquare, ScrollText, Search, Server, Settings, type LucideIcon } from 'lucide-react';
import { Icon } from '../../ui/Icon';

const PAGES: { page: Page; label: string; icon: LucideIcon }[] = [
  { page: 'chat', label: 'Chat', icon: MessageSquare },
  { page: 'servers', label: 'Servers', icon: Server },
  { page: 'roots', label: 'Roots', icon: FolderTree },
  { page: 'logs', label: 'Logs', icon: ScrollText },
  { page: 'settings', label: 'Settings', icon: Settings },
];

export interface NavigationProps {
  current: Page;
  /** To the page's top level (its list), whatever detail of it is open. */
  onNavigate(page: Page): void;
  onOpenPalette(): void;
}

/** Main navigation; the current page is marked with aria-current for screen readers and tests. */
export function Navigation({ current, onNavigate, onOpenPalette }: NavigationProps) {
  const keys = shortcutKeys('palette', isMac());
  return (
    <nav aria-label="Main" className="nav">
      <div className="brand">
        <img src={appIcon} alt="" width={22} height={22} />
        Patchbay
      </div>
      <ul>
        {PAGES.map(({ page, label, icon }) => (
          <li key={page}>
            <button type="button" aria-current={current === page ? 'page' : undefined} onClick={() => onNavigate(page)}>
              <Icon icon={icon} />
              {label}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="nav-palette" onClick={onOpenPalette} aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}>
        <span className="nav-palette-label">
          <Icon icon={Search} />
          Commands…
        </span>{' '}
        <kbd>{keys}</kbd>
      </button>
    </nav>
  );
}
