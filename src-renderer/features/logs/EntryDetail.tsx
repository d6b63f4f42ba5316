import { useEffect, useState } from 'react';
import { formatBytes, type HostApi, type LogEntry, type LogEntryDetail } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { copyText } from './clipboard';
import { formatClock } from './log-format';
import { Alert } from '../../ui/Alert';

export interface EntryDetailProps {
  api: HostApi;
  entry: LogEntry;
  onClose(): void;
}

/** The selected entry in full: its fields, and the whole message or data, pretty-printed. */
export function EntryDetail({ api, entry, onClose }: EntryDetailProps) {
  const [detail, setDetail] = useState<{ seq: number; value?: LogEntryDetail; error?: string } | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    if (!entry.hasDetail) return;
    api.getLogEntry({ seq: entry.seq }).then(
      (value) => current && setDetail({ seq: entry.seq, value }),
      (error: unknown) => current && setDetail({ seq: entry.seq, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, entry.seq, entry.hasDetail]);

  const loaded = detail?.seq === entry.seq ? detail : null;
  const body = entry.hasDetail ? loaded?.value?.detail : entry.text;
  const facts: [string, string | undefined][] = [
    ['Time', `${new Date(entry.ts).toLocaleDateString()} ${formatClock(entry.ts)}`],
    ['Level', entry.level],
    ['Direction', entry.direction && (entry.direction === 'out' ? 'sent to the server' : 'received from the server')],
    ['Method', entry.method],
    ['Id', entry.rpcId !== undefined ? String(entry.rpcId) : undefined],
    ['Size', entry.bytes !== undefined ? formatBytes(entry.bytes) : undefined],
    ['Latency', entry.latencyMs !== undefined ? `${entry.latencyMs} ms` : undefined],
    ['Logger', entry.logger],
    ['Event', entry.event],
  ];

  return (
    <section className="log-detail card" aria-label="Entry detail">
      <div className="log-detail-head">
        <h3>Entry at {formatClock(entry.ts)}</h3>
        <button
          type="button"
          className="secondary"
          disabled={body === undefined}
          onClick={() => void copyText(body ?? '').then((ok) => setCopied(ok ? 'Copied' : 'Could not copy'))}
        >
          Copy entry
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
        {copied && (
          <span role="status" className="muted">
            {copied}
          </span>
        )}
      </div>
      <dl className="facts">
        {facts
          .filter(([, value]) => value !== undefined)
          .map(([label, value]) => (
            <div key={label} className="fact">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <Alert message={loaded?.error} prefix="Could not load the entry:" />
      {entry.hasDetail && !loaded && <p className="muted">Loading…</p>}
      {body !== undefined && <pre className="log-detail-body">{body}</pre>}
      {loaded?.value?.truncated && <p className="muted">The message was larger than 64 KB; only its beginning was kept.</p>}
    </section>
  );
}
