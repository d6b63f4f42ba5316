import { useCallback, useState } from 'react';
import { type LogEntry, type LogLevel, type LogStream } from '@contract';
import { liveKey } from '../../stores/slices/logs-slice';
import { useAppStore } from '../../stores/use-app-store';
import { DiagnosticsPanel } from './DiagnosticsPanel';
import { LevelControl } from './LevelControl';
import { StreamTabs } from './StreamTabs';
import { StreamView } from './StreamView';
import './logs.css';

const NO_ENTRIES: readonly LogEntry[] = [];

export interface ServerLogsProps {
  serverId: string;
  /** The open tab, when the parent keeps it (the Logs page keeps it across servers); else its own. */
  stream?: LogStream;
  onStreamChange?(stream: LogStream): void;
}

/**
 * One server's logs: diagnostics when it failed, then a tab per stream (Output, Messages, Protocol,
 * Host). The container: it reads the store and hands plain props down. Used by the Logs page and by
 * the server detail's Logs tab.
 */
export function ServerLogs({ serverId, stream: shownStream, onStreamChange }: ServerLogsProps) {
  const api = useAppStore((s) => s.api);
  const server = useAppStore((s) => s.servers[serverId]);
  const [ownStream, setOwnStream] = useState<LogStream>('output');
  const stream = shownStream ?? ownStream;
  const setStream = onStreamChange ?? setOwnStream;
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
      <DiagnosticsPanel
        serverName={name}
        runtime={server.runtime}
        showingOutput={stream === 'output'}
        onShowOutput={() => setStream('output')}
        load={loadDiagnostics}
      />
      <StreamTabs label={`${name} log streams`} stream={stream} onStreamChange={setStream}>
        <StreamView
          key={`${serverId}:${stream}`}
          api={api}
          serverId={serverId}
          serverName={name}
          stream={stream}
          live={live}
          skipped={skipped}
          clearCount={clearCount}
          extra={stream === 'messages' ? <LevelControl runtime={server.runtime} level={level} onChange={setLevel} /> : undefined}
        />
      </StreamTabs>
    </div>
  );
}
