import type { ImportPreview } from '@contract';

const FORMAT_LABELS: Record<ImportPreview['format'], string> = {
  'claude-desktop': 'Claude Desktop (claude_desktop_config.json)',
  cursor: 'Cursor (mcp.json)',
  vscode: 'VS Code (mcp.json)',
  patchbay: 'Patchbay export (restoring servers)',
  unknown: 'Unrecognized format',
};

/** What an import would do with each entry of the pasted file. */
export function ImportPreviewTable({ preview }: { preview: ImportPreview }) {
  if (preview.entries.length === 0) return <p className="muted">The file names no servers.</p>;
  return (
    <>
      <p className="muted">Detected: {FORMAT_LABELS[preview.format]}</p>
      <table className="import-preview">
        <caption className="visually-hidden">Import preview</caption>
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">What happens</th>
          </tr>
        </thead>
        <tbody>
          {preview.entries.map((entry, index) => (
            <tr key={`${index}-${entry.name}`} data-action={entry.action}>
              <th scope="row">{entry.name}</th>
              <td>
                {entry.action === 'import' ? 'Will import' : `Skip: ${entry.reason ?? 'not importable'}`}
                {entry.action === 'import' && entry.reason && <span className="muted"> — {entry.reason}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
