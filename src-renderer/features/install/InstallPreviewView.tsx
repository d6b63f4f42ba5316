import type { InstallPreview, PreviewPair } from '@contract';
import { CommandRiskList } from '../../ui/CommandRiskList';
import { VisibleText } from '../../ui/VisibleText';

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
              <code>
                <VisibleText text={`${pair.key}${separator}${pair.secret ? '•••••• (secret)' : (pair.value ?? '')}`} />
              </code>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}

/**
 * Exactly what would be stored, as the host computed it: the command line or URL, its environment or
 * headers — hidden characters shown as escapes — and, before Install, what in it deserves a second look.
 */
export function InstallPreviewView({ preview }: { preview: InstallPreview }) {
  return (
    <section aria-labelledby="install-preview-title" className="install-preview">
      <h3 id="install-preview-title">What will run</h3>
      <dl className="facts">
        {preview.commandLine !== undefined && (
          <>
            <dt>Command line</dt>
            <dd>
              <code data-testid="install-command-line">
                <VisibleText text={preview.commandLine} />
              </code>
            </dd>
          </>
        )}
        {preview.url !== undefined && (
          <>
            <dt>URL</dt>
            <dd>
              <code data-testid="install-url">
                <VisibleText text={preview.url} />
              </code>
            </dd>
          </>
        )}
        {preview.cwd && (
          <>
            <dt>Working directory</dt>
            <dd>
              <code>
                <VisibleText text={preview.cwd} />
              </code>
            </dd>
          </>
        )}
        <Pairs title="Environment" pairs={preview.env} separator="=" />
        <Pairs title="Headers" pairs={preview.headers} separator=": " />
      </dl>
      {preview.sandbox && <p className="hint install-sandbox">{preview.sandbox}</p>}
      <CommandRiskList risks={preview.risks} />
      {preview.missing.length > 0 && <p className="hint">Still needed: {preview.missing.join(', ')}.</p>}
      {preview.notes.map((note) => (
        <p key={note} className="hint">
          {note}
        </p>
      ))}
    </section>
  );
}
