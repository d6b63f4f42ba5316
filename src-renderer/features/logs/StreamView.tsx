import { useEffect, useState, type ReactNode } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import type { HostApi, LogEntry, LogStream } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { copyText, downloadText } from './clipboard';
import { EntryDetail } from './EntryDetail';
import { entryLine, exportFileName, STREAM_LABELS } from './log-format';
import { hostFilter, NO_FILTERS, type LogViewFilters } from './log-view-model';
import { LogList } from './LogList';
import { LogToolbar } from './LogToolbar';
import { serverOf, useLogView } from './use-log-view';
import { Alert } from '../../ui/Alert';

export interface StreamViewProps {
  api: HostApi;
  /** Undefined: every server's entries of the stream, merged by time ("All servers"). */
  serverId: string | undefined;
  /** The server's name, or what the view is called when it shows every server. */
  serverName: string;
  /** In the "All servers" view: the name of each entry's server, shown in its row. */
  serverNameOf?: (serverId: string) => string;
  stream: LogStream;
  /** Live entries of this stream from the store, oldest first. */
  live: readonly LogEntry[];
  /** Entries not pushed live (flood) so far. */
  skipped: number;
  clearCount: number;
  /** Extra controls above the list (the Messages tab's server log level). */
  extra?: ReactNode;
}

/** One stream of one server: toolbar, the windowed list, and the selected entry's detail. */
export function StreamView({ api, serverId, serverName, serverNameOf, stream, live, skipped, clearCount, extra }: StreamViewProps) {
  const [filters, setFilters] = useState<LogViewFilters>(NO_FILTERS);
  const [selected, setSelected] = useState<LogEntry | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState({ copy: false, export: false });
  // A timeline bar's "Protocol log": this stream, filtered to that request's lines.
  const logFilter = useAppStore((s) => (s.intent?.kind === 'filter-protocol-log' && stream === 'protocol' ? s.intent : null));
  const finishIntent = useAppStore((s) => s.finishIntent);
  const [appliedSeq, setAppliedSeq] = useState<number | null>(null);
  if (logFilter && logFilter.seq !== appliedSeq) {
    setAppliedSeq(logFilter.seq);
    setFilters({ ...NO_FILTERS, text: logFilter.target ?? '' });
  }
  useEffect(() => {
    if (logFilter) finishIntent(logFilter);
  }, [logFilter, finishIntent]);
  const view = useLogView(api, serverId, stream, filters, live, clearCount);
  const filtered = Object.keys(hostFilter(filters)).length > 0;

  const copy = async () => {
    setBusy((b) => ({ ...b, copy: true }));
    const ok = await copyText(view.rows.map(entryLine).join('\n'));
    setBusy((b) => ({ ...b, copy: false }));
    setNote(ok ? `Copied ${view.rows.length.toLocaleString()} entries` : 'Could not copy: the browser refused the clipboard');
  };

  const exportView = async () => {
    setBusy((b) => ({ ...b, export: true }));
    try {
      const result = await api.exportLogs({ ...serverOf(serverId), stream, ...hostFilter(filters) });
      downloadText(exportFileName(serverName, stream), result.jsonl);
      setNote(`Exported ${result.count.toLocaleString()} entries${result.truncated ? ' (the newest: the export limit was reached)' : ''}`);
    } catch (error) {
      setNote(`Could not export: ${messageOf(error)}`);
    } finally {
      setBusy((b) => ({ ...b, export: false }));
    }
  };

  const clear = async () => {
    if (serverId === undefined) return;
    try {
      await api.clearLogs({ serverId, stream });
      setSelected(null);
      setNote(`${STREAM_LABELS[stream]} cleared`);
    } catch (error) {
      setNote(`Could not clear: ${messageOf(error)}`);
    }
  };

  return (
    <div className="log-stream">
      {extra}
      <LogToolbar
        stream={stream}
        filters={filters}
        following={view.following}
        newWhilePaused={view.newWhilePaused}
        busy={busy}
        onFilters={setFilters}
        onPause={view.pause}
        onResume={view.resume}
        onCopy={() => void copy()}
        onExport={() => void exportView()}
        onClear={serverId !== undefined ? () => void clear() : undefined}
      />
      <div className="log-status">
        <span role="status" aria-label={`${STREAM_LABELS[stream]} status`}>
          {view.rows.length.toLocaleString()} {view.rows.length === 1 ? 'entry' : 'entries'}
          {view.loading ? ' · loading…' : ''}
          {view.following ? ' · following' : ' · paused'}
        </span>
        {view.hasMore && (
          <button type="button" className="link" onClick={view.loadOlder}>
            Load older
          </button>
        )}
        {note && <span className="muted">{note}</span>}
      </div>
      {skipped > 0 && view.following && (
        <p className="muted">
          {skipped.toLocaleString()} entries came too fast to show live. Pause to page through everything the host kept.
        </p>
      )}
      <Alert message={view.error} prefix="Could not load the log:" />
      <LogList
        stream={stream}
        label={`${STREAM_LABELS[stream]} entries`}
        rows={view.rows}
        follow={view.following}
        selectedSeq={selected?.seq ?? null}
        serverNameOf={serverNameOf}
        emptyText={!view.loaded ? 'Loading…' : filtered ? 'No entries match the filter.' : 'No entries yet.'}
        onSelect={setSelected}
        onScrollAway={view.pause}
        onReachTop={() => !view.following && view.loadOlder()}
      />
      {selected && <EntryDetail key={selected.seq} api={api} entry={selected} onClose={() => setSelected(null)} />}
    </div>
  );
}
