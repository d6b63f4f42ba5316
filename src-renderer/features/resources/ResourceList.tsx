import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { formatBytes, type ResourceView } from '@contract';
import type { ResourcePages } from './use-resource-pages';

/** Fixed row height: every row is a name line and a URI line. */
export const RESOURCE_ROW_HEIGHT = 46;

export interface ResourceListProps {
  pages: ResourcePages;
  /** Accessible name of the list ("Resources of everything"). */
  label: string;
  selectedUri: string | null;
  /** URIs followed on this server (marked in the list). */
  followed: ReadonlySet<string>;
  onSelect(resource: ResourceView): void;
  height?: number;
  /** jsdom has no layout: tests give the viewport size. */
  initialRect?: Rect;
  /** Name each row's server (lists of several servers). */
  showServer?: boolean;
}

/**
 * Every resource by its name, virtualized: a few dozen rows in the DOM whether the server has ten
 * resources or 100,000, and only the pages on screen fetched from the host.
 */
export function ResourceList({
  pages,
  label,
  selectedUri,
  followed,
  onSelect,
  height = 440,
  initialRect,
  showServer = false,
}: ResourceListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const total = pages.total ?? 0;
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook returns functions React Compiler cannot memoize; nothing here is compiled.
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => RESOURCE_ROW_HEIGHT,
    overscan: 12,
    initialRect: initialRect ?? { width: 320, height },
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  const { ensure } = pages;
  useEffect(() => {
    if (total > 0) ensure(first, last);
  }, [ensure, first, last, total]);
  // For the benchmark: mark when a fresh first page is on screen.
  const arrivals = pages.firstPageArrivals;
  useEffect(() => {
    if (arrivals === 0) return;
    const frame = requestAnimationFrame(() => performance.mark('patchbay:resources-painted', { detail: { arrivals } }));
    return () => cancelAnimationFrame(frame);
  }, [arrivals]);

  return (
    <div ref={scrollRef} className="resource-list" style={{ height }} data-testid="resource-scroller">
      <ul aria-label={label} style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => {
          const resource = pages.item(row.index);
          return (
            <li
              key={row.index}
              className="resource-row"
              style={{ transform: `translateY(${row.start}px)`, height: RESOURCE_ROW_HEIGHT }}
              aria-posinset={row.index + 1}
              aria-setsize={total}
            >
              {resource ? (
                <>
                  <button
                    type="button"
                    className="resource-name"
                    aria-current={resource.uri === selectedUri ? 'true' : undefined}
                    onClick={() => onSelect(resource)}
                  >
                    {resource.name}
                  </button>
                  {followed.has(resource.uri) && <span className="resource-badge"> · following</span>}
                  <span className="resource-row-meta muted">
                    {showServer ? `${resource.serverName} · ` : ''}
                    {resource.title ? `${resource.title} · ` : ''}
                    {resource.uri}
                    {resource.mimeType ? ` · ${resource.mimeType}` : ''}
                    {resource.size !== undefined ? ` · ${formatBytes(resource.size)}` : ''}
                  </span>
                </>
              ) : (
                <span className="muted">Loading…</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
