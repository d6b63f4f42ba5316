import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TimelineSpan } from '@contract';
import type { TimelineRow } from './timeline-rows';

/** Every row is one line (label, bar, duration), so the list is virtualised with a fixed height. */
export const TIMELINE_ROW_HEIGHT = 32;
/** The waterfall scrolls past this height (about 15 rows): a 200-call turn keeps ~25 rows in the page, not 200. */
const MAX_HEIGHT = 480;

/**
 * The turn as a waterfall: only the rows on screen are in the page (a 2,000-call turn opens as fast
 * as a 20-call one). One Tab stop: the bar last focused (else the selected one, else the first); the
 * arrow keys, Home, End, Page Up and Page Down move between bars, Enter or Space selects one. Each
 * bar is a button named with all its numbers (read on focus; the pointer sees them as its tooltip)
 * and each row says where it is in the turn (`aria-posinset` of `aria-setsize`).
 */
export function TimelineWaterfall({
  rows,
  selectedId,
  busy,
  onSelect,
  initialRect,
}: {
  rows: TimelineRow[];
  selectedId: string | undefined;
  /** A newer answer is being fetched (the rows shown are the last one's). */
  busy: boolean;
  onSelect(span: TimelineSpan): void;
  /** jsdom has no layout: tests give the viewport size. */
  initialRect?: Rect;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focusedId, setFocusedId] = useState<string | undefined>(undefined);
  const height = Math.min(MAX_HEIGHT, rows.length * TIMELINE_ROW_HEIGHT);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook returns functions React Compiler cannot memoize; nothing here is compiled.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TIMELINE_ROW_HEIGHT,
    overscan: 8,
    initialRect: initialRect ?? { width: 860, height },
  });
  const indexOf = (id: string | undefined) => (id === undefined ? -1 : rows.findIndex((r) => r.span.id === id));
  // The Tab stop: a bar that is gone (a newer answer) falls back to the selected bar, then the first.
  const stop = [indexOf(focusedId), indexOf(selectedId), 0].find((i) => i >= 0)!;

  /** Moves the focus to a bar (scrolled into view first: its row may not be in the page yet). */
  const focusBar = (index: number) => {
    const target = Math.max(0, Math.min(rows.length - 1, index));
    setFocusedId(rows[target]?.span.id);
    virtualizer.scrollToIndex(target);
    const tryFocus = (attempt: number) => {
      const bar = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${target}"] button`);
      if (bar) bar.focus();
      else if (attempt < 5) requestAnimationFrame(() => tryFocus(attempt + 1));
    };
    tryFocus(0);
  };
  // The dialog opened before its first answer: the focus waits on the dialog itself, and comes here.
  useEffect(() => {
    const active = document.activeElement;
    if (active?.getAttribute('role') === 'dialog' && active.contains(scrollRef.current))
      scrollRef.current?.querySelector<HTMLElement>('button[tabindex="0"]')?.focus();
  }, []);
  const page = Math.max(1, Math.floor(height / TIMELINE_ROW_HEIGHT) - 1);
  const onKeyDown = (e: KeyboardEvent) => {
    const from = (e.target as HTMLElement).closest<HTMLElement>('[data-row]');
    if (!from) return;
    const at = Number(from.dataset.row);
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      Home: 0,
      End: rows.length - 1,
      PageDown: at + page,
      PageUp: at - page,
    };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    focusBar(to);
  };

  return (
    <div ref={scrollRef} className="timeline-scroller" style={{ maxHeight: MAX_HEIGHT }} onKeyDown={onKeyDown}>
      <ol className="timeline" aria-label="Turn timeline" aria-busy={busy || undefined} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <TimelineRowView
              key={row.span.id}
              row={row}
              index={item.index}
              count={rows.length}
              start={item.start}
              tabStop={item.index === stop}
              selected={row.span.id === selectedId}
              onSelect={onSelect}
              onFocused={setFocusedId}
            />
          );
        })}
      </ol>
    </div>
  );
}

/** One row; memoised, so scrolling or selecting re-renders only the rows whose props changed. */
const TimelineRowView = memo(function TimelineRowView({
  row,
  index,
  count,
  start,
  tabStop,
  selected,
  onSelect,
  onFocused,
}: {
  row: TimelineRow;
  index: number;
  count: number;
  start: number;
  tabStop: boolean;
  selected: boolean;
  onSelect(span: TimelineSpan): void;
  onFocused(id: string): void;
}) {
  const { span } = row;
  return (
    <li
      className="timeline-row"
      data-row={index}
      data-kind={span.kind}
      aria-posinset={index + 1}
      aria-setsize={count}
      style={{ transform: `translateY(${start}px)`, paddingInlineStart: `${row.depth * 12}px` }}
    >
      <span className="timeline-label">{span.label}</span>
      <span className="timeline-track">
        <button
          type="button"
          className="timeline-bar"
          data-kind={span.kind}
          data-status={span.status}
          aria-label={row.words}
          title={row.words}
          aria-pressed={selected}
          tabIndex={tabStop ? 0 : -1}
          style={{ insetInlineStart: row.left, width: row.width }}
          onFocus={() => onFocused(span.id)}
          onClick={() => onSelect(span)}
        />
      </span>
      <span className="timeline-time">{row.duration}</span>
    </li>
  );
});
