import type { InstallPreview, PreviewPair } from '../../../src-preload/contract';

const pairText = (pair: PreviewPair, separator: string) => `${pair.key}${separator}${pair.secret ? '•••••• (secret)' : (pair.value ?? '')}`;

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
        {preview.env.length > 0 && (
          <>
            <dt>Environment</dt>
            <dd>
              <ul className="plain-list">
                {preview.env.map((pair) => (
                  <li key={pair.key}>
                    <code>{pairText(pair, '=')}</code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {preview.headers.length > 0 && (
          <>
            <dt>Headers</dt>
            <dd>
              <ul className="plain-list">
                {preview.headers.map((pair) => (
                  <li key={pair.key}>
                    <code>{pairText(pair, ': ')}</code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
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
