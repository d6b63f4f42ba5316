import { useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import type { LogEntry, LogStream } from '@contract';
import { ROW_HEIGHT } from './log-list-metrics';
import { LogRow } from './LogRow';
import { rowWindow } from './log-view-model';

export interface LogListProps {
  stream: LogStream;
  /** Accessible name of the list ("Output entries"). */
  label: string;
  rows: readonly LogEntry[];
  /** Keep the newest row in view as rows arrive. */
  follow: boolean;
  selectedSeq: number | null;
  /** Names each row's server (the "All servers" view). */
  serverNameOf?: (serverId: string) => string;
  /** Shown instead of the list when there are no rows. */
  emptyText: string;
  onSelect(entry: LogEntry): void;
  /** The user scrolled up while following: the view should pause. */
  onScrollAway(): void;
  /** The user reached the top: older entries may be loaded. */
  onReachTop(): void;
  /** Viewport height in pixels. */
  height?: number;
}

/**
 * A windowed list of log entries with fixed-height rows: a few dozen DOM rows whether it holds ten
 * entries or twenty thousand, so a flooding server cannot freeze the page.
 */
export function LogList({
  stream,
  label,
  rows,
  follow,
  selectedSeq,
  serverNameOf,
  emptyText,
  onSelect,
  onScrollAway,
  onReachTop,
  height = 440,
}: LogListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  /** Where we last scrolled to ourselves: a scroll event above it is the user's. */
  const placedAt = useRef(0);
  const [scrollTop, setScrollTop] = useState(0);
  const total = rows.length * ROW_HEIGHT;
  const bottom = Math.max(0, total - height);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!follow || !el) return;
    el.scrollTop = el.scrollHeight;
    placedAt.current = el.scrollTop;
  }, [follow, rows]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    setScrollTop(el.scrollTop);
    if (follow && el.scrollTop < placedAt.current - ROW_HEIGHT / 2) onScrollAway();
    if (el.scrollTop < ROW_HEIGHT * 2) onReachTop();
  };

  if (rows.length === 0) {
    return (
      <p className="muted log-empty" role="status">
        {emptyText}
      </p>
    );
  }

  // While following, the window is the bottom, before the scroll event that confirms it arrives.
  const { start, end } = rowWindow(rows.length, follow ? bottom : scrollTop, height, ROW_HEIGHT);
  const shown = rows.slice(start, end);
  return (
    <div
      ref={scroller}
      className="log-list"
      style={{ height }}
      onScroll={onScroll}
      data-stream={stream}
      data-servers={serverNameOf ? 'all' : undefined}
    >
      <div role="list" aria-label={label} className="log-list-inner" style={{ height: total }}>
        {shown.map((entry, i) => (
          <LogRow
            key={entry.seq}
            entry={entry}
            stream={stream}
            top={(start + i) * ROW_HEIGHT}
            position={start + i + 1}
            count={rows.length}
            selected={entry.seq === selectedSeq}
            serverName={serverNameOf?.(entry.serverId)}
            onSelect={onSelect}
          />
        ))}
      </div>
    </div>
  );
}
