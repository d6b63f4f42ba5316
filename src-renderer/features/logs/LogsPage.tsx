import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LogStream } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { AllServersLogs } from './AllServersLogs';
import { RetentionSettings } from './RetentionSettings';
import { ServerLogs } from './ServerLogs';
import { Select } from '../../ui/Select';
import { ScrollText } from 'lucide-react';
import { EmptyState } from '../../ui/EmptyState';

/** The picker's value for the merged view of every server, and the server part of its address (`*`). */
const ALL_SERVERS = '*';

/**
 * The Logs page: pick a server (or All servers), read its streams; the open tab stays when the
 * server changes. How much history is kept, below.
 */
export function LogsPage() {
  const id = useId();
  const api = useAppStore((s) => s.api);
  const ids = useAppStore((s) => s.serverOrder);
  const names = useAppStore(useShallow((s) => s.serverOrder.map((serverId) => s.servers[serverId]?.config.name ?? serverId)));
  const servers = ids.map((serverId, i) => ({ id: serverId, name: names[i] ?? serverId }));
  const settings = useAppStore((s) => s.logSettings);
  const loaded = useAppStore((s) => s.info !== null || s.loadError !== null);
  // The server (or All servers) and the stream are part of the address (#/logs/<server>/<stream>).
  const route = useAppStore((s) => (s.route.page === 'logs' ? s.route : null));
  const go = useAppStore((s) => s.go);
  const picked = route?.serverId ?? null;
  const stream: LogStream = route?.stream ?? 'output';
  // The page opens on All servers (where a problem shows up whichever server has it); a pick survives
  // only while its server does.
  const serverId = picked !== null && servers.some((s) => s.id === picked) ? picked : ALL_SERVERS;
  const gone = loaded && picked !== null && picked !== ALL_SERVERS && serverId !== picked;
  useEffect(() => {
    if (gone) go({ page: 'logs' }, { replace: true, notice: 'That server no longer exists: showing the logs of all servers.' });
  }, [gone, go]);
  // The open tab stays when another server is picked.
  const show = (next: string, nextStream: LogStream = stream) => go({ page: 'logs', serverId: next, stream: nextStream });

  return (
    <section aria-labelledby="page-title" className="page logs-page">
      <h1 id="page-title">Logs</h1>
      {!loaded ? (
        <p className="muted">Loading…</p>
      ) : servers.length === 0 ? (
        <EmptyState
          icon={ScrollText}
          action={
            <button type="button" className="primary" onClick={() => go({ page: 'servers' })}>
              Open the Servers page
            </button>
          }
        >
          No servers yet: a server’s output, messages and traffic show up here.
        </EmptyState>
      ) : (
        <>
          <div className="log-server-picker">
            <label htmlFor={`${id}-server`}>Server</label>
            <Select
              id={`${id}-server`}
              value={serverId}
              onChange={show}
              options={[{ value: ALL_SERVERS, label: 'All servers' }, ...servers.map((s) => ({ value: s.id, label: s.name }))]}
            />
          </div>
          {serverId === ALL_SERVERS ? (
            <AllServersLogs stream={stream} onStreamChange={(next) => show(ALL_SERVERS, next)} />
          ) : (
            <ServerLogs key={serverId} serverId={serverId} stream={stream} onStreamChange={(next) => show(serverId, next)} />
          )}
        </>
      )}
      {settings && (
        <details className="card log-retention-card">
          <summary>Retention</summary>
          <RetentionSettings settings={settings} onSave={(patch) => api.updateLogSettings(patch)} />
        </details>
      )}
    </section>
  );
}
