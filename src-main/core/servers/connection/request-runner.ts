/**
 * Runs one request on a ready session with Patchbay's timeout rules:
 * - `timeoutMs` without an answer → the SDK sends `notifications/cancelled` and fails the call;
 * - progress notifications reset that timeout, but only up to `maxTotalMs` in total, which we
 *   enforce with our own AbortController: the SDK's `maxTotalTimeout` is only checked when a
 *   progress notification arrives and then fails the call *without* telling the server, whereas
 *   an abort goes through the SDK's cancel path, which sends `notifications/cancelled`;
 * - the caller's AbortSignal cancels the same way.
 * Every failure becomes a `ServerRequestError` naming the server and the request.
 */
import { SdkError, SdkErrorCode, type Client, type Progress, type RequestOptions } from '@modelcontextprotocol/client';
import { RequestAbort } from '../sdk-internals/request-abort';
import { explainRequestFailure, type CrashInfo } from './request-errors';
import { withTimeout } from '../wait';

/** Per-call options of the public request methods. */
export interface RequestCallOptions {
  /** Aborting it cancels the request (the server gets `notifications/cancelled`). */
  signal?: AbortSignal;
  /**
   * The caller's own cancellation, used as the request's (one per call instead of two): aborting it
   * cancels the request like `signal`; the total-time cap aborts it too. Takes the place of `signal`.
   */
  controller?: RequestAbort;
  /** Progress notifications for this request; asking for them also lets progress extend the timeout. */
  onProgress?: (progress: Progress) => void;
  /** Overrides the connection's request timeout. */
  timeoutMs?: number;
  /** Overrides the connection's total-time cap. */
  maxTotalTimeoutMs?: number;
  /** Who asked for it, named in the Protocol log (e.g. "the app of Weather"); never sent to the server. */
  initiator?: string;
}

/** The session, request and limits `runRequest` works with. */
export interface RunRequestContext {
  serverName: string;
  /** e.g. `tools/call "echo"`. */
  request: string;
  client: Client;
  timeoutMs: number;
  maxTotalMs: number;
  /** Set when the connection crashed; consulted when a request fails. */
  crash: () => CrashInfo | undefined;
  /** Resolves when it crashes (a failing request may arrive a moment before the report). */
  crashed: Promise<CrashInfo>;
}

/** How long a failed request waits for the crash report a broken connection is about to produce. */
const CRASH_REPORT_WAIT_MS = 500;

/** Runs `send` with the timeout/cancellation options described in the module comment. */
export async function runRequest<T>(
  ctx: RunRequestContext,
  send: (client: Client, options: RequestOptions) => Promise<T>,
  options: RequestCallOptions = {},
): Promise<T> {
  // Not an AbortController: a Node AbortSignal per request is what made requests cost (see request-abort.ts).
  const controller = options.controller ?? new RequestAbort();
  let abortedBy: 'caller' | 'total' | undefined;
  const startedAt = Date.now();
  let totalTimer: NodeJS.Timeout | undefined;
  const capTotal = (ms: number) => {
    totalTimer = setTimeout(() => {
      abortedBy ??= 'total';
      controller.abort(new Error(`maximum total time of ${ctx.maxTotalMs} ms exceeded`));
    }, ms);
  };
  // Without progress the SDK's own timeout ends the request first; the cap matters (and its timer
  // is armed) only once progress extended it — unless the cap is the shorter of the two.
  if (ctx.maxTotalMs < ctx.timeoutMs) capTotal(ctx.maxTotalMs);
  const onCallerAbort = () => {
    abortedBy ??= 'caller';
    controller.abort(options.signal?.reason ?? new Error('cancelled by the caller'));
  };
  const callerSignal = options.controller ? undefined : options.signal;
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });

  try {
    return await send(ctx.client, {
      timeout: ctx.timeoutMs,
      resetTimeoutOnProgress: true,
      signal: controller.signal,
      // Always ask for progress: without a progress token the server cannot extend the timeout.
      onprogress: (progress) => {
        if (totalTimer === undefined) capTotal(Math.max(0, ctx.maxTotalMs - (Date.now() - startedAt)));
        try {
          options.onProgress?.(progress);
        } catch {
          // A listener's bug must not break the request.
        }
      },
    });
  } catch (error) {
    // The caller's own controller aborted by the caller (not by the cap).
    if (abortedBy === undefined && options.controller?.aborted) abortedBy = 'caller';
    // A request failing because the connection broke usually beats the crash report (exit status,
    // stderr) by a few milliseconds: wait briefly for it, so the message can say what happened.
    let crash = ctx.crash();
    if (!crash && abortedBy === undefined && isConnectionLoss(error)) {
      await withTimeout(ctx.crashed, CRASH_REPORT_WAIT_MS);
      crash = ctx.crash();
    }
    throw explainRequestFailure(
      { serverName: ctx.serverName, request: ctx.request, timeoutMs: ctx.timeoutMs, maxTotalMs: ctx.maxTotalMs, abortedBy, crash },
      error,
    );
  } finally {
    clearTimeout(totalTimer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Errors that mean "the connection is gone" rather than anything about the request itself. */
function isConnectionLoss(error: unknown): boolean {
  if (error instanceof SdkError) {
    return (
      error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected || error.code === SdkErrorCode.SendFailed
    );
  }
  return error instanceof Error && /^(Could not write to server|Server ".*" is not running)/.test(error.message);
}
