import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../stores/use-app-store';
import { RetentionSettings } from './RetentionSettings';
import { ServerLogs } from './ServerLogs';

/** The Logs page: pick a server, read its streams; how much history is kept, below. */
export function LogsPage() {
  const id = useId();
  const api = useAppStore((s) => s.api);
  const ids = useAppStore((s) => s.serverOrder);
  const names = useAppStore(useShallow((s) => s.serverOrder.map((serverId) => s.servers[serverId]?.config.name ?? serverId)));
  const servers = ids.map((serverId, i) => ({ id: serverId, name: names[i] ?? serverId }));
  const settings = useAppStore((s) => s.logSettings);
  const loaded = useAppStore((s) => s.info !== null || s.loadError !== null);
  // The server and stream are part of the address (#/logs/<server>/<stream>).
  const route = useAppStore((s) => (s.route.page === 'logs' ? s.route : null));
  const go = useAppStore((s) => s.go);
  const picked = route?.serverId ?? null;
  // The pick survives only while its server does; otherwise the first server.
  const serverId = servers.some((s) => s.id === picked) ? picked : (servers[0]?.id ?? null);
  const gone = loaded && picked !== null && serverId !== picked;
  useEffect(() => {
    if (gone) go({ page: 'logs' }, { replace: true, notice: 'That server no longer exists: showing the logs of another one.' });
  }, [gone, go]);

  return (
    <section aria-labelledby="page-title" className="page logs-page">
      <h1 id="page-title">Logs</h1>
      {!loaded ? (
        <p className="muted">Loading…</p>
      ) : servers.length === 0 || serverId === null ? (
        <p className="muted empty-state">
          No servers yet. Add one on the Servers page; its output, messages and protocol traffic show up here.
        </p>
      ) : (
        <>
          <div className="log-server-picker">
            <label htmlFor={`${id}-server`}>Server</label>
            <select id={`${id}-server`} value={serverId} onChange={(e) => go({ page: 'logs', serverId: e.target.value })}>
              {servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <ServerLogs
            key={serverId}
            serverId={serverId}
            stream={route?.stream ?? 'output'}
            onStreamChange={(stream) => go({ page: 'logs', serverId, stream })}
          />
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
