import type { ServerRuntime } from '@contract';
import { RelativeTime } from '../../ui/RelativeTime';
import { countsText, protocolLabel, REMOTE_TRANSPORT_LABELS, shortSessionId } from './server-status';

export interface RuntimeFactsProps {
  runtime: ServerRuntime;
  /** The detail page: the process, the exit status and the capabilities too. */
  showProcess?: boolean;
  /** A server row: only what tells servers apart at a glance (capabilities are left to the detail page). */
  compact?: boolean;
}

/**
 * What the host knows about a server's process and session, listing only facts it has. A failure's
 * reason is not among them: `FailureOutput` shows it with its lines.
 */
export function RuntimeFacts({ runtime, showProcess = false, compact = false }: RuntimeFactsProps) {
  const { serverInfo, restart, exit, remote } = runtime;
  const failed = runtime.status === 'error' || runtime.status === 'crashed';
  const protocol = protocolLabel(runtime);
  return (
    <dl className={compact ? 'facts facts-compact' : 'facts'}>
      {runtime.reason && !failed && (
        <>
          <dt>Reason</dt>
          <dd>{runtime.reason}</dd>
        </>
      )}
      {runtime.status === 'starting' && runtime.detail && (
        <>
          <dt>Progress</dt>
          <dd>{runtime.detail}</dd>
        </>
      )}
      {restart && (
        <>
          {/* While starting, the server asked to wait (429, 503…): the next try of this start. */}
          <dt>{runtime.status === 'starting' ? 'Next try' : 'Restart'}</dt>
          <dd>
            Attempt {restart.attempt} of {restart.of}, <RelativeTime iso={restart.at} future />
          </dd>
        </>
      )}
      {serverInfo && (
        <>
          <dt>Server</dt>
          <dd>
            {serverInfo.title ? `${serverInfo.title} (${serverInfo.name})` : serverInfo.name} {serverInfo.version}
          </dd>
        </>
      )}
      {remote && (
        <>
          <dt>Transport</dt>
          <dd>{REMOTE_TRANSPORT_LABELS[remote.transport]}</dd>
        </>
      )}
      {remote?.sessionId && (
        <>
          <dt>Session</dt>
          <dd>
            <code title={remote.sessionId}>{shortSessionId(remote.sessionId)}</code>
          </dd>
        </>
      )}
      {protocol && (
        <>
          <dt>Protocol</dt>
          <dd title={protocol.detail}>
            {protocol.label}
            {!compact && <span className="muted"> — {protocol.detail}</span>}
          </dd>
        </>
      )}
      {!compact && runtime.capabilities && runtime.capabilities.length > 0 && (
        <>
          <dt>Capabilities</dt>
          <dd>{runtime.capabilities.join(', ')}</dd>
        </>
      )}
      {runtime.counts && (
        <>
          <dt>Offers</dt>
          <dd>{countsText(runtime.counts)}</dd>
        </>
      )}
      {showProcess && runtime.pid !== undefined && (
        <>
          <dt>Process</dt>
          <dd>PID {runtime.pid}</dd>
        </>
      )}
      {exit && (showProcess || (failed && !compact)) && (
        <>
          <dt>Exit</dt>
          <dd>{exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`}</dd>
        </>
      )}
    </dl>
  );
}
