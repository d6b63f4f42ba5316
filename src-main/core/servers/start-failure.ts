/**
 * Why a server did not become ready, as one message for the user, and whether another attempt
 * with a different era assumption is worth making.
 */
import { SdkError, SdkErrorCode, SUPPORTED_PROTOCOL_VERSIONS, UnsupportedProtocolVersionError } from '@modelcontextprotocol/client';
import { LaunchError } from './launch-error';
import { describeExit, formatDuration, formatStderrTail } from './server-state';
import type { CloseReport } from './stdio-transport';

/** What was going on when a start failed. */
export interface StartFailureContext {
  serverName: string;
  /** What the start was doing when it failed (for timeouts): "the MCP handshake", "listing its tools"… */
  phase: string;
  /** Set when the start watchdog gave up. */
  watchdog?: { cause: 'idle' | 'total'; idleTimeoutMs: number; maxTotalMs: number };
  /** How the transport closed, if it did. */
  closeReport: CloseReport | undefined;
  stderrTail: string[];
}

/** What to do after a failed attempt. */
export type StartVerdict =
  | { kind: 'fail'; reason: string }
  /** The server hung up on the `server/discover` probe: try again without probing. */
  | { kind: 'retry-legacy' };

/** Legacy versions this client offers in `initialize`, newest first (the SDK offers the first). */
const LEGACY_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS;

/** Classifies an error thrown while starting a server. */
export function explainStartFailure(ctx: StartFailureContext, error: unknown): StartVerdict {
  const server = `Server "${ctx.serverName}"`;
  const tail = formatStderrTail(ctx.stderrTail);
  const message = error instanceof Error ? error.message : String(error);

  if (error instanceof LaunchError) return fail(`${server} could not be started: ${error.message}`);

  if (ctx.watchdog) {
    const { cause, idleTimeoutMs, maxTotalMs } = ctx.watchdog;
    const why =
      cause === 'total'
        ? `did not finish starting within the ${formatDuration(maxTotalMs)} limit (it was still writing to stderr)`
        : `did not complete ${ctx.phase}: no answer and no output for ${formatDuration(idleTimeoutMs)}`;
    return fail(`${server} ${why}; it was stopped.${tail}`);
  }

  const unsupported = /protocol version is not supported: (.+)$/.exec(message);
  if (unsupported) {
    return fail(
      `${server} answered with protocol version ${unsupported[1]}, which Patchbay does not support ` +
        `(Patchbay offered ${LEGACY_VERSIONS[0]}; it supports ${LEGACY_VERSIONS.join(', ')} and 2026-07-28).`,
    );
  }
  if (error instanceof UnsupportedProtocolVersionError) {
    return fail(
      `${server} supports protocol versions ${error.supported.join(', ')}, none of which Patchbay supports ` +
        `(Patchbay requested ${error.requested}).`,
    );
  }

  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /closed during the server\/discover probe/.test(message)) {
    return { kind: 'retry-legacy' };
  }

  const report = ctx.closeReport;
  if (report && report.reason !== 'closed-by-host') {
    const how = report.reason === 'process-exited' ? `exited during startup (${describeExit(report.exit)})` : 'closed the connection during startup';
    return fail(`${server} ${how}.${tail}`);
  }
  return fail(`${server} failed during ${ctx.phase}: ${message}${tail}`);
}

function fail(reason: string): StartVerdict {
  return { kind: 'fail', reason };
}
