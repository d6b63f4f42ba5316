/**
 * Why a server did not become ready, as one message for the user, and whether another attempt
 * with a different era assumption is worth making.
 */
import {
  InsufficientScopeError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnauthorizedError,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
import type { RemoteTransportMode } from './connection-options';
import { describeNetworkError } from '../transport/remote-transport';
import { describeRefusal, type TemporaryRefusal } from '../transport/temporary-refusal';
import { LaunchError } from '../process/launch-error';
import { formatStderrTail } from '@contract';
import { describeExit, formatDuration, formatWait } from './server-state';
import type { CloseReport } from '../transport/session-transport';

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
  /** Set for a remote server: its URL and the HTTP transport this attempt used. */
  remote?: { url: string; mode: RemoteTransportMode };
  /** A remote server's last "not now" answer (429, 503…) during this attempt. */
  refusal?: TemporaryRefusal;
}

/** What to do after a failed attempt. */
export type StartVerdict =
  /** `refusal`: the server said "not now" (429, 5xx): wait as it asked and try again, it is not broken. */
  | { kind: 'fail'; reason: string; refusal?: TemporaryRefusal }
  /** The server hung up on the `server/discover` probe: try again without probing. */
  | { kind: 'retry-legacy' }
  /** A remote server refused Streamable HTTP (HTTP 4xx): try the legacy HTTP+SSE transport. */
  | { kind: 'retry-sse' };

/** Legacy versions this client offers in `initialize`, newest first (the SDK offers the first). */
const LEGACY_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS;

/** Classifies an error thrown while starting a server. */
export function explainStartFailure(ctx: StartFailureContext, error: unknown): StartVerdict {
  const server = `Server "${ctx.serverName}"`;
  const tail = formatStderrTail(ctx.stderrTail);
  const message = error instanceof Error ? error.message : String(error);

  if (error instanceof LaunchError) return fail(`${server} could not be started: ${error.message}`);
  if (ctx.remote && !ctx.watchdog) {
    const verdict = explainRemoteFailure(server, ctx.remote, error, ctx.closeReport, ctx.refusal);
    if (verdict) return verdict;
  }

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

  if (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    /closed during the server\/discover probe/.test(message)
  ) {
    return { kind: 'retry-legacy' };
  }

  const report = ctx.closeReport;
  if (report && report.reason !== 'closed-by-host') {
    const how =
      report.reason === 'process-exited'
        ? `exited during startup (${describeExit(report.exit)})`
        : `closed the connection during startup${report.detail ? ` (${report.detail})` : ''}`;
    return fail(`${server} ${how}.${tail}`);
  }
  return fail(`${server} failed during ${ctx.phase}: ${message}${tail}`);
}

/** The failures only a remote server has: sign-in, HTTP answers, the network. */
function explainRemoteFailure(
  server: string,
  remote: { url: string; mode: RemoteTransportMode },
  error: unknown,
  closeReport: CloseReport | undefined,
  refusal: TemporaryRefusal | undefined,
): StartVerdict | undefined {
  const host = hostOf(remote.url);
  if (error instanceof InsufficientScopeError) return fail(`${server} needs more permissions: sign in again (${host}).`);
  if (error instanceof UnauthorizedError || (error instanceof SdkHttpError && error.status === 401)) {
    return fail(`${server} needs you to sign in (${host}).`);
  }
  // The transport closes on a network failure, so the SDK may report only "connection closed".
  const network = describeNetworkError(error) ?? (closeReport?.reason === 'connection-lost' ? closeReport.detail : undefined);
  if (network) return fail(`${server} cannot be reached at ${remote.url}: ${network}.`);
  // 429 or a 5xx: a temporary refusal, not an old server (whatever error shape the SDK gave it).
  if (refusal) {
    const asked = refusal.retryAfterMs !== undefined ? `it asked for ${formatWait(refusal.retryAfterMs)}` : undefined;
    return { kind: 'fail', reason: `${server} ${describeRefusal(refusal, host, asked)}.`, refusal };
  }
  if (error instanceof SdkHttpError) {
    // Streamable HTTP answered 4xx to our first POST: per the spec's backwards-compatibility rule, an old HTTP+SSE server.
    if (remote.mode === 'streamable-http' && error.status >= 400 && error.status < 500 && error.status !== 403)
      return { kind: 'retry-sse' };
    if (error.status === 403) return fail(`${server} refused access (HTTP 403 from ${host}).`);
    return fail(`${server} answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''} at ${remote.url}.`);
  }
  if (remote.mode === 'sse') {
    const message = error instanceof Error ? error.message : String(error);
    return fail(`${server} at ${remote.url} answered neither as a Streamable HTTP nor as an HTTP+SSE MCP server (${message}).`);
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function fail(reason: string): StartVerdict {
  return { kind: 'fail', reason };
}
