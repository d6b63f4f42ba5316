import * as Tabs from '@radix-ui/react-tabs';
import { useCallback, useState } from 'react';
import { LOG_STREAMS, type LogEntry, type LogLevel, type LogStream } from '../../../src-preload/contract';
import { liveKey } from '../../stores/slices/logs-slice';
import { useAppStore } from '../../stores/use-app-store';
import { DiagnosticsPanel } from './DiagnosticsPanel';
import { LevelControl } from './LevelControl';
import { STREAM_LABELS } from './log-format';
import { StreamView } from './StreamView';
import './logs.css';

const NO_ENTRIES: readonly LogEntry[] = [];

/**
 * One server's logs: diagnostics when it failed, then a tab per stream (Output, Messages, Protocol,
 * Host). The container: it reads the store and hands plain props down. Used by the Logs page and by
 * the server detail's Logs tab.
 */
export function ServerLogs({
  serverId,
  ...choice
}: {
  serverId: string;
  /** The stream shown and how to show another, when the caller keeps it (the Logs page: it is part of the address). */
  stream?: LogStream;
  onStreamChange?(stream: LogStream): void;
}) {
  const api = useAppStore((s) => s.api);
  const server = useAppStore((s) => s.servers[serverId]);
  const [ownStream, setOwnStream] = useState<LogStream>('output');
  const stream = choice.onStreamChange ? (choice.stream ?? 'output') : ownStream;
  const setStream = choice.onStreamChange ?? setOwnStream;
  const live = useAppStore((s) => s.logLive[liveKey(serverId, stream)] ?? NO_ENTRIES);
  const skipped = useAppStore((s) => s.logSkipped[liveKey(serverId, stream)] ?? 0);
  const clearCount = useAppStore((s) => s.logClearCount);
  const level = useAppStore((s) => s.logLevels[serverId]);
  const loadDiagnostics = useCallback(() => api.getServerDiagnostics({ id: serverId }), [api, serverId]);
  const setLevel = useCallback((next: LogLevel) => api.setServerLogLevel({ id: serverId, level: next }), [api, serverId]);

  if (!server) return <p className="muted">This server no longer exists.</p>;
  const name = server.config.name;

  return (
    <div className="server-logs">
      <DiagnosticsPanel serverName={name} runtime={server.runtime} load={loadDiagnostics} />
      <Tabs.Root value={stream} onValueChange={(value) => setStream(value as LogStream)} className="tabs">
        <Tabs.List aria-label={`${name} log streams`} className="tab-list">
          {LOG_STREAMS.map((s) => (
            <Tabs.Trigger key={s} value={s}>
              {STREAM_LABELS[s]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {LOG_STREAMS.map((s) => (
          <Tabs.Content key={s} value={s}>
            {s === stream && (
              <StreamView
                key={`${serverId}:${s}`}
                api={api}
                serverId={serverId}
                serverName={name}
                stream={s}
                live={live}
                skipped={skipped}
                clearCount={clearCount}
                extra={s === 'messages' ? <LevelControl runtime={server.runtime} level={level} onChange={setLevel} /> : undefined}
              />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}
