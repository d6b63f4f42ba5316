import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { ChatMessage } from '@contract';
import { useAppStore } from '../../stores/use-app-store';

export interface MessageListProps {
  /** The rows, oldest first (a loaded window of the history). */
  rows: readonly ChatMessage[];
  /** Older messages exist before the first row. */
  hasMore: boolean;
  /** Asks for the next older page (called when the top comes near). */
  onLoadOlder(): void;
  loadingOlder: boolean;
  renderRow(message: ChatMessage): ReactNode;
  /** Changes when another conversation is shown: the list starts at its end again. */
  conversationKey: string;
  /** The viewport size before it is measured (tests; a sensible guess otherwise). */
  initialRect?: Rect;
}

/** Rows closer than this to the top ask for older history. */
const LOAD_AHEAD_ROWS = 5;

/**
 * The virtualized history: only the rows in view (plus a few) exist in the DOM, whatever the length.
 * End-anchored (TanStack Virtual's chat mode): it opens at the newest message, follows streaming
 * output and new messages only while the reader is at the end (a message the user sends brings the
 * view to the end wherever it was), and keeps the visible message in place
 * when older history is prepended.
 */
export function MessageList({ rows, hasMore, onLoadOlder, loadingOlder, renderRow, conversationKey, initialRect }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook returns functions React Compiler cannot memoize; nothing here is compiled.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 120,
    getItemKey: (index) => rows[index].id,
    overscan: 4,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 80,
    initialRect: initialRect ?? { width: 800, height: 600 },
  });
  const items = virtualizer.getVirtualItems();

  // A newly shown conversation starts at its newest message.
  useLayoutEffect(() => {
    virtualizer.scrollToEnd();
  }, [conversationKey, virtualizer]);

  // The user's own new message is shown, wherever they had scrolled to: sending means looking at the end.
  const last = rows[rows.length - 1];
  const lastSentId = last?.role === 'user' ? last.id : undefined;
  const seenSent = useRef(lastSentId);
  useLayoutEffect(() => {
    if (lastSentId === undefined || lastSentId === seenSent.current) return;
    seenSent.current = lastSentId;
    virtualizer.scrollToEnd();
  }, [lastSentId, virtualizer]);

  // A timeline bar's "Show the card": a message out of the window is scrolled to, and once its row is
  // rendered the card scrolls itself into view and focuses (its effect runs before this one). The
  // virtualizer's scroll is stopped then: it would keep aiming at the message — in a long turn, far
  // from the card — for a few frames more, while the rows around it are measured.
  const wanted = useAppStore((s) => (s.intent?.kind === 'focus-tool-card' ? s.intent.target : undefined));
  const wantedIndex = wanted === undefined ? -1 : rows.findIndex((m) => m.content.some((b) => b.type === 'tool_use' && b.id === wanted));
  const wantedShown = wantedIndex >= 0 && items.some((item) => item.index === wantedIndex);
  useEffect(() => {
    if (wantedIndex < 0) return;
    if (wantedShown) virtualizer.cancelScroll();
    else virtualizer.scrollToIndex(wantedIndex, { align: 'center' });
  }, [wantedIndex, wantedShown, virtualizer]);

  const canLoad = hasMore && !loadingOlder && rows.length > 0;
  // Older history is asked for when the reader scrolls near the top — on the scroll itself, read from
  // the element's own offset. Not from a render: right after a page is prepended, a render can still
  // see the old offset (the end anchor moves the view a moment later) and would ask for one page too many.
  const onScroll = () => {
    const element = scrollRef.current;
    if (!element || !canLoad) return;
    const first = virtualizer.getVirtualItemForOffset(element.scrollTop);
    if ((first?.index ?? 0) < LOAD_AHEAD_ROWS) onLoadOlder();
  };
  // A history shorter than the view cannot be scrolled: ask for more until it fills the view.
  const totalSize = virtualizer.getTotalSize();
  useEffect(() => {
    const element = scrollRef.current;
    if (element && canLoad && totalSize <= element.clientHeight) onLoadOlder();
  }, [canLoad, totalSize, onLoadOlder]);

  return (
    <div className="message-list-frame">
      {hasMore && loadingOlder && <div className="message-list-more muted">Loading older messages…</div>}
      <div ref={scrollRef} className="message-list" role="log" aria-label="Messages" aria-live="off" tabIndex={0} onScroll={onScroll}>
        <div className="message-list-inner" style={{ height: totalSize }}>
          {items.map((item) => (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="message-row"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {renderRow(rows[item.index])}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
