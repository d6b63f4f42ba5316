import { useState } from 'react';
import { splitStderrTail, type ServerDiagnostics, type ServerRuntime } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { copyText } from './clipboard';

export interface DiagnosticsPanelProps {
  serverName: string;
  runtime: ServerRuntime;
  /** The Output stream is the one on show (the server's last lines are at its end). */
  showingOutput: boolean;
  onShowOutput(): void;
  /** Asks the host for the (redacted) diagnostics. */
  load(): Promise<ServerDiagnostics>;
}

/**
 * For a server in Error or Crashed: why, where its last lines are, and one button that copies
 * everything a bug report needs (resolved command, versions, exit status, last lines, environment with
 * secrets redacted; the host redacts them). The last lines (a stack trace) are not repeated here:
 * they are the end of the Output stream on the same screen.
 */
export function DiagnosticsPanel({ serverName, runtime, showingOutput, onShowOutput, load }: DiagnosticsPanelProps) {
  const [copied, setCopied] = useState<{ since: string; text: string } | null>(null);
  if (runtime.status !== 'error' && runtime.status !== 'crashed') return null;
  const { summary } = splitStderrTail(runtime.reason ?? '');
  const copy = async () => {
    try {
      const value = await load();
      const ok = await copyText(value.text);
      setCopied({ since: runtime.since, text: ok ? 'Diagnostics copied' : 'Could not copy: the browser refused the clipboard' });
    } catch (error) {
      setCopied({ since: runtime.since, text: `Could not copy: ${messageOf(error)}` });
    }
  };

  return (
    <section className="card log-diagnostics" aria-label={`${serverName} diagnostics`}>
      <p className="warning">
        <strong>{runtime.status === 'crashed' ? 'Crashed' : 'Error'}:</strong> {summary || 'no reason given'}
      </p>
      <p className="muted">
        {showingOutput ? 'The last lines it wrote are at the end of Output, below.' : 'The last lines it wrote are at the end of Output.'}{' '}
        Copy diagnostics copies them with the rest.
      </p>
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          Copy diagnostics
        </button>
        {!showingOutput && (
          <button type="button" className="secondary" onClick={onShowOutput}>
            Show Output
          </button>
        )}
        {copied?.since === runtime.since && (
          <span role="status" className="muted">
            {copied.text}
          </span>
        )}
      </div>
    </section>
  );
}
