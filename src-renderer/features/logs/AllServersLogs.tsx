import { useCallback, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LogStream } from '@contract';
import { liveKey } from '../../stores/slices/logs-slice';
import { useAppStore } from '../../stores/use-app-store';
import { mergeLive } from './log-view-model';
import { StreamTabs } from './StreamTabs';
import { StreamView } from './StreamView';
import './logs.css';

export interface AllServersLogsProps {
  stream: LogStream;
  onStreamChange(stream: LogStream): void;
}

/**
 * "All servers": one stream of every server, merged in the order the host saw the entries, each row
 * naming its server. The same toolbar and filters as one server's view (Clear stays per server).
 */
export function AllServersLogs({ stream, onStreamChange }: AllServersLogsProps) {
  const api = useAppStore((s) => s.api);
  const lists = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.logLive[liveKey(id, stream)]).filter((l) => l !== undefined)));
  const skipped = useAppStore((s) => s.serverOrder.reduce((n, id) => n + (s.logSkipped[liveKey(id, stream)] ?? 0), 0));
  const clearCount = useAppStore((s) => s.logClearCount);
  const names = useAppStore(useShallow((s) => Object.fromEntries(s.serverOrder.map((id) => [id, s.servers[id]?.config.name ?? id]))));
  const live = useMemo(() => mergeLive(lists), [lists]);
  const serverNameOf = useCallback((serverId: string) => names[serverId] ?? 'removed server', [names]);

  return (
    <div className="server-logs">
      <StreamTabs label="All servers log streams" stream={stream} onStreamChange={onStreamChange}>
        <StreamView
          key={`all:${stream}`}
          api={api}
          serverId={undefined}
          serverName="all-servers"
          serverNameOf={serverNameOf}
          stream={stream}
          live={live}
          skipped={skipped}
          clearCount={clearCount}
        />
      </StreamTabs>
    </div>
  );
}
