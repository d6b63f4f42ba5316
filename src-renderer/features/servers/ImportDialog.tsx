import { useState } from 'react';
import { formatBytes, MAX_IMPORT_CHARS, type HostApi, type ImportPreview, type ImportResult } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { ImportPreviewTable } from './ImportPreviewTable';
import { Alert } from '../../ui/Alert';

export interface ImportDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  api: Pick<HostApi, 'previewImport' | 'applyImport'>;
  /** The text is an install link (`patchbay://install?…`, `vscode:mcp/install?…`): review it in the install dialog. */
  onInstallLink?(link: string): void;
}

/** True for pasted text that is an install link rather than a config file. */
export const isInstallLink = (text: string) => /^\s*(patchbay:|vscode(-insiders)?:)/i.test(text);

/** "Import servers": paste or pick a config file, preview what happens, then import. */
export function ImportDialog({ open, onOpenChange, api, onInstallLink }: ImportDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Import servers"
      description="From Claude Desktop’s claude_desktop_config.json, a Cursor or VS Code mcp.json, a Patchbay export, or an install link."
      className="modal-wide"
    >
      <ImportFlow api={api} onClose={() => onOpenChange(false)} onInstallLink={onInstallLink} />
    </Modal>
  );
}

type Busy = 'reading' | 'preview' | 'import' | null;
const plural = (n: number) => `${n} server${n === 1 ? '' : 's'}`;
/** What is over the limit ("big.json (1.2 MB)", "The configuration (1.2 MB)") said at the field. */
const tooLarge = (what: string) => `${what} is larger than the ${formatBytes(MAX_IMPORT_CHARS)} an import may carry.`;
/** UTF-8 takes at most 3 bytes per UTF-16 unit: a file larger than this surely holds too many characters. */
const MAX_FILE_BYTES = MAX_IMPORT_CHARS * 3;

function ImportFlow({
  api,
  onClose,
  onInstallLink,
}: {
  api: ImportDialogProps['api'];
  onClose(): void;
  onInstallLink?(link: string): void;
}) {
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  /** A chosen file that was too large (its text is not taken). */
  const [fileTooLarge, setFileTooLarge] = useState<string | null>(null);
  // Checked here, before sending: a call this large would be refused by the host anyway.
  const textTooLarge = text.length > MAX_IMPORT_CHARS ? tooLarge(`The configuration (${formatBytes(text.length)})`) : null;
  const sizeError = textTooLarge ?? fileTooLarge;

  const changeText = (next: string) => {
    setText(next);
    setPreview(null); // a preview describes the text it was made from
    setError(null);
    setFileTooLarge(null);
  };

  const chooseFile = (file: File | undefined) => {
    if (!file) return;
    const refuse = () => setFileTooLarge(tooLarge(`${file.name} (${formatBytes(file.size)})`));
    if (file.size > MAX_FILE_BYTES) return refuse();
    const reader = new FileReader();
    setBusy('reading');
    reader.onload = () => {
      setBusy(null);
      const read = typeof reader.result === 'string' ? reader.result : '';
      if (read.length > MAX_IMPORT_CHARS) refuse();
      else changeText(read);
    };
    reader.onerror = () => {
      setBusy(null);
      setError(`Could not read ${file.name}.`);
    };
    reader.readAsText(file);
  };

  const call = async <T,>(kind: Exclude<Busy, null>, run: () => Promise<T>, done: (value: T) => void) => {
    setBusy(kind);
    setError(null);
    try {
      done(await run());
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };

  if (result) return <ImportOutcome result={result} onClose={onClose} />;
  const count = preview?.entries.filter((entry) => entry.action === 'import').length ?? 0;
  const link = onInstallLink !== undefined && isInstallLink(text);
  return (
    <div className="form">
      <Field label="Configuration" hint="Paste the file’s contents, or choose the file." error={sizeError ?? undefined}>
        {(c) => <textarea {...c} rows={8} spellCheck={false} value={text} onChange={(e) => changeText(e.target.value)} />}
      </Field>
      <div className="actions">
        <label className="button secondary file-button">
          Choose file…
          <input
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            onChange={(e) => {
              chooseFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
        {link ? (
          <button type="button" className="primary" onClick={() => onInstallLink(text.trim())}>
            Review link
          </button>
        ) : (
          <button
            type="button"
            disabled={busy !== null || text.trim() === '' || textTooLarge !== null}
            onClick={() => void call('preview', () => api.previewImport({ text }), setPreview)}
          >
            Preview
          </button>
        )}
        <span role="status" className="save-state">
          {busy === 'reading' && 'Reading…'}
          {busy === 'preview' && 'Checking…'}
          {busy === 'import' && 'Importing…'}
        </span>
      </div>
      <Alert message={error} tone="field-error" />
      {link && <p className="hint">This is an install link: review exactly what it would run before anything is added.</p>}
      {preview && <ImportPreviewTable preview={preview} />}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy !== null || count === 0 || textTooLarge !== null}
          onClick={() => void call('import', () => api.applyImport({ text }), setResult)}
        >
          Import {plural(count)}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function ImportOutcome({ result, onClose }: { result: ImportResult; onClose(): void }) {
  return (
    <div className="import-outcome">
      <p role="status">
        Imported {plural(result.imported.length)}
        {result.imported.length > 0 && ': '}
        {result.imported.map((server) => server.config.name).join(', ')}
      </p>
      {result.notes.length > 0 && (
        <>
          <p>Still to do:</p>
          <ul>
            {result.notes.map((entry, index) => (
              <li key={`${index}-${entry.name}`}>
                {entry.name}: {entry.note}
              </li>
            ))}
          </ul>
        </>
      )}
      {result.skipped.length > 0 && (
        <>
          <p>Skipped {plural(result.skipped.length)}:</p>
          <ul>
            {result.skipped.map((entry, index) => (
              <li key={`${index}-${entry.name}`}>
                {entry.name}: {entry.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
