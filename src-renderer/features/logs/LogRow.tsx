import { memo } from 'react';
import { formatBytes, type LogEntry, type LogStream } from '@contract';
import { formatClock, protocolInitiator, protocolPreview } from './log-format';

export interface LogRowProps {
  entry: LogEntry;
  stream: LogStream;
  /** Offset in the list, in pixels. */
  top: number;
  /** 1-based position and the list's size, for assistive technology (the list is windowed). */
  position: number;
  count: number;
  selected: boolean;
  /** Shown after the time in the "All servers" view. */
  serverName?: string;
  onSelect(entry: LogEntry): void;
}

/** The columns of one entry, per stream: protocol rows show direction, method, id, size and latency. */
function Columns({ entry, stream }: { entry: LogEntry; stream: LogStream }) {
  if (stream === 'protocol') {
    const what = entry.kind === 'response' ? 'result' : entry.kind === 'error' ? 'error' : '';
    const initiator = protocolInitiator(entry.text);
    return (
      <>
        <span className="log-dir" aria-label={entry.direction === 'out' ? 'sent' : 'received'}>
          {entry.direction === 'out' ? '→' : '←'}
        </span>
        <span className="log-method">
          {what && <span className="log-kind">{what} </span>}
          {entry.method ?? ''}
        </span>
        <span className="log-id">{entry.rpcId !== undefined ? `#${entry.rpcId}` : ''}</span>
        <span className="log-size">{entry.bytes !== undefined ? formatBytes(entry.bytes) : ''}</span>
        <span className="log-latency">{entry.latencyMs !== undefined ? `${entry.latencyMs} ms` : ''}</span>
        <span className="log-text">
          {initiator && <span className="log-initiator">{initiator} · </span>}
          {protocolPreview(entry.text)}
        </span>
      </>
    );
  }
  return (
    <>
      <span className="log-level" data-level={entry.level}>
        {entry.level}
      </span>
      {stream === 'messages' && <span className="log-logger">{entry.logger ?? ''}</span>}
      {stream === 'host' && <span className="log-event">{entry.event ?? ''}</span>}
      <span className="log-text">{entry.text}</span>
    </>
  );
}

/** One row of the log list: a button that opens the entry's detail. */
export const LogRow = memo(function LogRow({ entry, stream, top, position, count, selected, serverName, onSelect }: LogRowProps) {
  return (
    <div role="listitem" aria-posinset={position} aria-setsize={count} className="log-row" style={{ top }} data-level={entry.level}>
      <button type="button" className="log-row-button" aria-pressed={selected} onClick={() => onSelect(entry)}>
        <span className="log-time">{formatClock(entry.ts)}</span>
        {serverName !== undefined && (
          <span className="log-server" title={serverName}>
            {serverName}
          </span>
        )}
        <Columns entry={entry} stream={stream} />
      </button>
    </div>
  );
});
