import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { ChatMessage } from '../../../src-preload/contract';

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
 * output and new messages only while the reader is at the end, and keeps the visible message in place
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

  const firstVisible = items[0]?.index ?? 0;
  useEffect(() => {
    if (hasMore && !loadingOlder && rows.length > 0 && firstVisible < LOAD_AHEAD_ROWS) onLoadOlder();
  }, [firstVisible, hasMore, loadingOlder, rows.length, onLoadOlder]);

  return (
    <div className="message-list-frame">
      {hasMore && loadingOlder && <div className="message-list-more muted">Loading older messages…</div>}
      <div ref={scrollRef} className="message-list" role="log" aria-label="Messages" aria-live="off" tabIndex={0}>
        <div className="message-list-inner" style={{ height: virtualizer.getTotalSize() }}>
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
