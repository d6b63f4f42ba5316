import { useEffect, useState } from 'react';
import type { ServerDiagnostics, ServerRuntime } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { copyText } from './clipboard';

export interface DiagnosticsPanelProps {
  serverName: string;
  runtime: ServerRuntime;
  /** Asks the host for the (redacted) diagnostics. */
  load(): Promise<ServerDiagnostics>;
}

/**
 * For a server in Error or Crashed: why, its last stderr lines, and one button that copies everything
 * a bug report needs (resolved command, versions, exit status, last lines, environment with secrets
 * redacted). The lines come from the host, already redacted.
 */
export function DiagnosticsPanel({ serverName, runtime, load }: DiagnosticsPanelProps) {
  const [diagnostics, setDiagnostics] = useState<{ since: string; value?: ServerDiagnostics; error?: string } | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const failed = runtime.status === 'error' || runtime.status === 'crashed';

  useEffect(() => {
    if (!failed) return;
    let current = true;
    load().then(
      (value) => current && setDiagnostics({ since: runtime.since, value }),
      (error: unknown) => current && setDiagnostics({ since: runtime.since, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [failed, load, runtime.since]);

  if (!failed) return null;
  const loaded = diagnostics?.since === runtime.since ? diagnostics : null;
  const copy = async () => {
    try {
      const value = loaded?.value ?? (await load());
      setCopied((await copyText(value.text)) ? 'Diagnostics copied' : 'Could not copy: the browser refused the clipboard');
    } catch (error) {
      setCopied(`Could not copy: ${messageOf(error)}`);
    }
  };

  return (
    <section className="card log-diagnostics" aria-label={`${serverName} diagnostics`}>
      <p className="warning">
        <strong>{runtime.status === 'crashed' ? 'Crashed' : 'Error'}:</strong> {runtime.reason ?? 'no reason given'}
      </p>
      {loaded?.value && loaded.value.lastStderr.length > 0 && (
        <>
          <h3>Last stderr lines</h3>
          <pre className="log-detail-body">{loaded.value.lastStderr.join('\n')}</pre>
        </>
      )}
      {loaded?.error && <p className="muted">Could not load the diagnostics: {loaded.error}</p>}
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          Copy diagnostics
        </button>
        {copied && (
          <span role="status" className="muted">
            {copied}
          </span>
        )}
      </div>
    </section>
  );
}
