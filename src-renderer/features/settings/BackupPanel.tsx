import { useCallback, useEffect, useState } from 'react';
import { formatBytes, type BackupState, type ExportFormat, type HostApi, type ServersExport } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { FilePickerButton } from '../../ui/FilePickerButton';
import { RelativeTime } from '../../ui/RelativeTime';
import { uploadFile } from '../install/upload';
import { ImportDialog } from '../servers/ImportDialog';
import { HelpTip } from '../../ui/HelpTip';
import { Alert } from '../../ui/Alert';

export type BackupApi = Pick<
  HostApi,
  | 'exportServers'
  | 'getBackupState'
  | 'createBackup'
  | 'stageRestore'
  | 'cancelRestore'
  | 'restartApp'
  | 'previewImport'
  | 'applyImport'
  | 'beginUpload'
  | 'uploadChunk'
  | 'cancelUpload'
>;

const EXPORTS: { format: ExportFormat; label: string }[] = [
  { format: 'patchbay', label: 'Export as Patchbay JSON' },
  { format: 'claude-desktop', label: 'Export as claude_desktop_config.json' },
  { format: 'vscode', label: 'Export as VS Code mcp.json' },
];

/** Offers text as a file download (the browser's or the app's save dialog). */
function download(fileName: string, text: string): void {
  if (typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Settings › Export and backup: server configurations out (three formats, never a secret) and back in
 * (Restore servers: Import servers with a Patchbay export), and full backups of the data directory,
 * restored at the next start.
 */
export function BackupPanel({ api }: { api: BackupApi }) {
  const [state, setState] = useState<BackupState | null>(null);
  const [exported, setExported] = useState<ServersExport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [restoring, setRestoring] = useState(false);

  const refresh = useCallback(() => api.getBackupState().then(setState, (e: unknown) => setError(messageOf(e))), [api]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const run = async (label: string, work: () => Promise<void>) => {
    setBusy(label);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };

  const exportAs = (format: ExportFormat) =>
    run('Exporting…', async () => {
      const result = await api.exportServers({ format });
      setExported(result);
      download(result.fileName, result.text);
    });

  const pending = state?.pendingRestore;
  return (
    <section aria-labelledby="backup-title" className="card">
      <h2 id="backup-title">Export and backup</h2>
      <h3>Servers</h3>
      <p className="hint">
        Every server’s configuration, without secret values.
        <HelpTip about="Export">
          Secret values are never exported: they are marked as to be filled, and servers that need them come back disabled.
        </HelpTip>
      </p>
      <div className="actions">
        {EXPORTS.map(({ format, label }) => (
          <button key={format} type="button" className="secondary" disabled={busy !== null} onClick={() => void exportAs(format)}>
            {label}
          </button>
        ))}
        <button type="button" className="secondary" onClick={() => setRestoring(true)}>
          Restore servers…
        </button>
      </div>
      {exported && (
        <div className="export-result">
          <p role="status">
            Exported {exported.servers} server{exported.servers === 1 ? '' : 's'} as {exported.fileName}.
            {exported.secretsLeftOut.length > 0 && ` Left out, to be filled: ${exported.secretsLeftOut.join(', ')}.`}
          </p>
          {exported.notes.map((note) => (
            <p key={note} className="hint">
              {note}
            </p>
          ))}
          <label className="field">
            Exported text
            <textarea readOnly rows={6} value={exported.text} spellCheck={false} />
          </label>
        </div>
      )}
      <h3>Full backup</h3>
      <p className="hint">
        One file with everything Patchbay keeps; secrets stay encrypted.
        <HelpTip about="Full backup">
          A consistent copy of the database, installed bundles and the quick-add servers’ data. Secrets stay encrypted with this
          installation’s key, so restored on another computer they must be entered again.
        </HelpTip>
      </p>
      <div className="actions">
        <button
          type="button"
          disabled={busy !== null}
          onClick={() =>
            void run('Backing up…', async () => {
              await api.createBackup();
              await refresh();
            })
          }
        >
          Back up now
        </button>
        <FilePickerButton
          label="Restore from a file…"
          accept=".zip"
          disabled={busy !== null}
          onFile={(file) =>
            void run(`Checking ${file.name}…`, async () =>
              setState(await api.stageRestore({ uploadId: await uploadFile(api, 'backup', file) })),
            )
          }
        />
        <span role="status" className="save-state">
          {busy}
        </span>
      </div>
      <Alert message={error} tone="field-error" />
      {pending && (
        <div role="status" className="notice">
          <div className="notice-body">
            <p className="notice-title">The backup {pending.from} will be restored when Patchbay starts next.</p>
            <p className="muted">
              It has {pending.servers} server{pending.servers === 1 ? '' : 's'}. Your current data is moved aside (kept, not deleted);
              changes you make until then are not in the backup.
              {!state?.canRestart && ' Stop Patchbay and start it again to finish.'}
            </p>
          </div>
          <div className="notice-actions">
            {state?.canRestart && (
              <button type="button" onClick={() => void run('Restarting…', () => api.restartApp())}>
                Restart now
              </button>
            )}
            <button
              type="button"
              className="secondary"
              onClick={() => void run('Cancelling…', async () => setState(await api.cancelRestore()))}
            >
              Cancel restore
            </button>
          </div>
        </div>
      )}
      {state && state.backups.length > 0 && (
        <ul role="list" aria-label="Backups" className="plain-list">
          {state.backups.map((backup) => (
            <li key={backup.name} aria-label={backup.name}>
              <code>{backup.name}</code> <span className="muted">{formatBytes(backup.bytes)}</span> <RelativeTime iso={backup.createdAt} />{' '}
              <button
                type="button"
                className="secondary"
                disabled={busy !== null}
                onClick={() => void run('Checking the backup…', async () => setState(await api.stageRestore({ backup: backup.name })))}
              >
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
      {state && <p className="hint">Backups are kept in {state.directory}.</p>}
      <ImportDialog open={restoring} onOpenChange={setRestoring} api={api} />
    </section>
  );
}
