import { useId } from 'react';
import { splitStderrTail, type ServerRuntime } from '@contract';
import { CopyButton } from '../../ui/CopyButton';

export interface FailureOutputProps {
  serverName: string;
  runtime: ServerRuntime;
  /** Show the server's last output open (the detail page) rather than behind "Last output". */
  outputOpen?: boolean;
}

/**
 * Why a server failed, as it was written: the reason keeps its lines, scrolls when long and can be
 * copied whole; the server's last output (a stack trace) follows, once: the copy of it the host
 * appended to the reason ("Last stderr lines:") is left out here.
 */
export function FailureOutput({ serverName, runtime, outputOpen = false }: FailureOutputProps) {
  const outputId = useId();
  const { summary, tail } = splitStderrTail(runtime.reason ?? '');
  const stderr = (runtime.lastStderr?.length ? runtime.lastStderr : tail).filter((line) => line.trim() !== '');
  const exit = runtime.exit;
  const copied = [summary, ...(stderr.length > 0 ? ['', 'Last output:', ...stderr] : [])].join('\n').trim();
  return (
    <div className="failure">
      {summary && (
        <pre className="failure-output" aria-label={`What went wrong with ${serverName}`} tabIndex={0}>
          {summary}
        </pre>
      )}
      <div className="failure-meta">
        {exit && <span className="muted">{exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`}</span>}
        <CopyButton label={`Copy what went wrong with ${serverName}`} text={copied} />
      </div>
      {stderr.length > 0 && (
        <details className="last-output" open={outputOpen || undefined}>
          <summary id={outputId}>Last output</summary>
          <pre aria-labelledby={outputId}>{stderr.join('\n')}</pre>
        </details>
      )}
    </div>
  );
}
