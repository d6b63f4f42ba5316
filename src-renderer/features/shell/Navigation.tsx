import type { Page } from '../../stores/app-store';
import { isMac, shortcutKeys } from './shortcuts';

const PAGES: { page: Page; label: string }[] = [
  { page: 'chat', label: 'Chat' },
  { page: 'servers', label: 'Servers' },
  { page: 'roots', label: 'Roots' },
  { page: 'logs', label: 'Logs' },
  { page: 'settings', label: 'Settings' },
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
      <div className="brand">Patchbay</div>
      <ul>
        {PAGES.map(({ page, label }) => (
          <li key={page}>
            <button type="button" aria-current={current === page ? 'page' : undefined} onClick={() => onNavigate(page)}>
              {label}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="nav-palette" onClick={onOpenPalette} aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}>
        Commands… <kbd>{keys}</kbd>
      </button>
    </nav>
  );
}
