import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LogStream } from '../../../src-preload/contract';
import { useAppStore } from '../../stores/use-app-store';
import { AllServersLogs } from './AllServersLogs';
import { RetentionSettings } from './RetentionSettings';
import { ServerLogs } from './ServerLogs';

/** The picker's value for the merged view of every server. */
const ALL_SERVERS = '';

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
  const [picked, setPicked] = useState<string | null>(null);
  const [stream, setStream] = useState<LogStream>('output');
  // The pick survives only while its server does; otherwise the first server.
  const serverId = picked === ALL_SERVERS || servers.some((s) => s.id === picked) ? picked : (servers[0]?.id ?? null);

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
            <select id={`${id}-server`} value={serverId} onChange={(e) => setPicked(e.target.value)}>
              <option value={ALL_SERVERS}>All servers</option>
              {servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          {serverId === ALL_SERVERS ? (
            <AllServersLogs stream={stream} onStreamChange={setStream} />
          ) : (
            <ServerLogs key={serverId} serverId={serverId} stream={stream} onStreamChange={setStream} />
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
