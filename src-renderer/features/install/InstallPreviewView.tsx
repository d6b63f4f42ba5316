import type { InstallPreview, PreviewPair } from '../../../src-preload/contract';

/** Environment variables or headers, one per line; a secret's value is never shown. */
function Pairs({ title, pairs, separator }: { title: string; pairs: PreviewPair[]; separator: string }) {
  if (pairs.length === 0) return null;
  return (
    <>
      <dt>{title}</dt>
      <dd>
        <ul className="plain-list">
          {pairs.map((pair) => (
            <li key={pair.key}>
              <code>{`${pair.key}${separator}${pair.secret ? '•••••• (secret)' : (pair.value ?? '')}`}</code>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}

/** Exactly what would be stored, as the host computed it: the command line or URL, its environment or headers. */
export function InstallPreviewView({ preview }: { preview: InstallPreview }) {
  return (
    <section aria-labelledby="install-preview-title" className="install-preview">
      <h3 id="install-preview-title">What will run</h3>
      <dl className="facts">
        {preview.commandLine !== undefined && (
          <>
            <dt>Command line</dt>
            <dd>
              <code data-testid="install-command-line">{preview.commandLine}</code>
            </dd>
          </>
        )}
        {preview.url !== undefined && (
          <>
            <dt>URL</dt>
            <dd>
              <code data-testid="install-url">{preview.url}</code>
            </dd>
          </>
        )}
        {preview.cwd && (
          <>
            <dt>Working directory</dt>
            <dd>
              <code>{preview.cwd}</code>
            </dd>
          </>
        )}
        <Pairs title="Environment" pairs={preview.env} separator="=" />
        <Pairs title="Headers" pairs={preview.headers} separator=": " />
      </dl>
      {preview.missing.length > 0 && <p className="hint">Still needed: {preview.missing.join(', ')}.</p>}
      {preview.notes.map((note) => (
        <p key={note} className="hint">
          {note}
        </p>
      ))}
    </section>
  );
}
