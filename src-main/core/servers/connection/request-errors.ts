/**
 * Turns SDK errors from a request into messages that name the server and the request, and say
 * what happened in user terms ("did not answer within 60 s", "crashed (exit code 3)").
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { formatStderrTail } from '@contract';
import { describeExit, formatDuration } from './server-state';
import type { ExitInfo } from '../process/stdio-process';
import { OversizedMessageError } from '../transport/stdio-transport';

/** Why a request failed, for callers that react differently (retry, tell the user…). */
export type RequestFailureKind =
  /** The server is not ready (stopped, starting, crashed). */
  | 'not-ready'
  /** No answer in time; `notifications/cancelled` was sent. */
  | 'timeout'
  /** The caller aborted; `notifications/cancelled` was sent. */
  | 'cancelled'
  /** The server process died or the connection broke while the request was in flight. */
  | 'crashed'
  /** The server answered with a JSON-RPC error. */
  | 'server-error'
  /** The answer was over the message size limit and was discarded. */
  | 'too-large'
  /** Anything else (invalid result, send failure…). */
  | 'failed';

/** A request to a server failed. `message` is meant for the user. */
export class ServerRequestError extends Error {
  override readonly name = 'ServerRequestError';

  constructor(
    readonly kind: RequestFailureKind,
    message: string,
    readonly serverName: string,
    /** e.g. `tools/call "echo"`. */
    readonly request: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The JSON-RPC error code, for `server-error`. */
  get code(): number | undefined {
    return this.cause instanceof ProtocolError ? this.cause.code : undefined;
  }
}

/** How the connection died, when it did. */
export interface CrashInfo {
  /** Already a full sentence naming the server. */
  reason: string;
  exit: ExitInfo | undefined;
  stderrTail: string[];
}

/** What `explainRequestFailure` needs to know besides the error itself. */
export interface FailureContext {
  serverName: string;
  /** e.g. `tools/call "echo"`. */
  request: string;
  timeoutMs: number;
  maxTotalMs: number;
  /** Set when our own AbortController fired: the caller's signal, or the total-time cap. */
  abortedBy?: 'caller' | 'total';
  /** Set when the connection crashed while the request was in flight. */
  crash?: CrashInfo;
}

/** Maps any error thrown by an SDK request to a {@link ServerRequestError}. */
export function explainRequestFailure(ctx: FailureContext, error: unknown): ServerRequestError {
  const server = `Server "${ctx.serverName}"`;
  const make = (kind: RequestFailureKind, message: string) =>
    new ServerRequestError(kind, message, ctx.serverName, ctx.request, { cause: error });

  if (error instanceof ServerRequestError) return error;
  if (ctx.crash) {
    const { exit, stderrTail, reason } = ctx.crash;
    const how = exit ? ` (${describeExit(exit)})` : '';
    return make('crashed', `${server} stopped while handling ${ctx.request}${how}. ${reason}${formatStderrTail(stderrTail)}`);
  }
  if (ctx.abortedBy === 'caller') return make('cancelled', `${ctx.request} to server "${ctx.serverName}" was cancelled`);
  if (ctx.abortedBy === 'total') {
    return make(
      'timeout',
      `${server} did not finish ${ctx.request} within the ${formatDuration(ctx.maxTotalMs)} limit ` +
        `(progress notifications extend the ${formatDuration(ctx.timeoutMs)} timeout only up to that limit); the request was cancelled`,
    );
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return make(
          'timeout',
          `${server} did not answer ${ctx.request} within ${formatDuration(ctx.timeoutMs)}; the request was cancelled`,
        );
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
        return make('crashed', `${server} closed the connection while handling ${ctx.request}`);
      default:
        return make('failed', `${ctx.request} to server "${ctx.serverName}" failed: ${error.message}`);
    }
  }
  if (error instanceof ProtocolError) {
    if (/^Response discarded: /.test(error.message)) {
      return make(
        'too-large',
        `${server} answered ${ctx.request} with a message that was too large. ${error.message.replace(/^Response discarded: /, 'Discarded: ')}`,
      );
    }
    return make('server-error', `${server} returned an error for ${ctx.request}: ${error.message}`);
  }
  if (error instanceof OversizedMessageError) return make('too-large', error.message);
  return make('failed', `${ctx.request} to server "${ctx.serverName}" failed: ${error instanceof Error ? error.message : String(error)}`);
}
