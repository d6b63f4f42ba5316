import type { ServerRuntime } from '../../../src-preload/contract';
import { RelativeTime } from '../../ui/RelativeTime';
import { countsText, REMOTE_TRANSPORT_LABELS, shortSessionId } from './server-status';

/** What the host knows about a server's process and session, listing only facts it has. */
export function RuntimeFacts({ runtime, showProcess = false }: { runtime: ServerRuntime; showProcess?: boolean }) {
  const { serverInfo, restart, exit, remote } = runtime;
  return (
    <dl className="facts">
      {runtime.reason && (
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
      {runtime.protocolVersion && (
        <>
          <dt>Protocol</dt>
          <dd>{[runtime.protocolVersion, runtime.era].filter(Boolean).join(' · ')}</dd>
        </>
      )}
      {runtime.capabilities && runtime.capabilities.length > 0 && (
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
      {exit && (showProcess || runtime.status === 'error' || runtime.status === 'crashed') && (
        <>
          <dt>Exit</dt>
          <dd>{exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`}</dd>
        </>
      )}
    </dl>
  );
}
