import type { Page } from '../../stores/app-store';

const PAGES: { page: Page; label: string }[] = [
  { page: 'chat', label: 'Chat' },
  { page: 'servers', label: 'Servers' },
  { page: 'roots', label: 'Roots' },
  { page: 'logs', label: 'Logs' },
  { page: 'settings', label: 'Settings' },
];

/** Main navigation; the current page is marked with aria-current for screen readers and tests. */
export function Navigation({ current, onNavigate }: { current: Page; onNavigate(page: Page): void }) {
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
    </nav>
  );
}
