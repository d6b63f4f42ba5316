/**
 * A remote server's transport: the SDK's Streamable HTTP client transport (or, for old servers, its
 * legacy HTTP+SSE one) wrapped so a `ServerSession` can supervise it like a child process:
 *
 * - a lost network connection or an expired session closes the transport with a report saying
 *   which, so the connection reconnects (with backoff) or re-initializes, as for a crashed process;
 * - `shutdown()` ends a 2025-era session with an HTTP DELETE before closing;
 * - static headers go only to the server's own origin (never to an OAuth server), and every
 *   request passes the OAuth seam's fetch wrapper;
 * - notifications beyond the server's budget are dropped or coalesced (see notification-gate.ts);
 * - every message in and out reaches the protocol log.
 *
 * It deliberately has no `pid` or `stderr` property: the SDK treats a transport with those as stdio.
 */
import {
  isInitializeRequest,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type JSONRPCMessage,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { describeDrops, holdKeyOf, isNotification, NotificationGate, type NotificationBudget } from './notification-gate';
import type { RemoteAuth } from './remote-auth';
import type { CloseReport, SessionTransport, WireTap } from './session-transport';
import { linkSignal, watchBody, type LinkedSignal } from './request-signal';
import { isTemporaryStatus, parseRetryAfter, type TemporaryRefusal } from './temporary-refusal';
import { withTimeout } from '../wait';
import { traceHeadersOf } from './trace-headers';

/** `streamable-http` (current), or `sse`: the 2024-11-05 HTTP+SSE transport of old servers. */
export type RemoteTransportMode = 'streamable-http' | 'sse';

export interface RemoteTransportOptions {
  /** User-facing server name, for messages. */
  serverName: string;
  url: URL;
  mode: RemoteTransportMode;
  /** Static headers the user configured (secrets already opened), sent to the server's origin only. */
  headers: Record<string, string>;
  /** OAuth, when the host supports it for this server. */
  auth?: RemoteAuth;
  onWire?: WireTap;
  /** Something the user should know that does not end the connection (notifications dropped). */
  onWarning?: (message: string) => void;
  /** How many notifications per second pass before the excess is dropped or coalesced. */
  notificationBudget?: NotificationBudget;
  /** How long the DELETE that ends a session may take on shutdown (default 2 s). */
  terminateTimeoutMs?: number;
  /** The network (default: global fetch). */
  fetch?: FetchLike;
}

/** Network failures that mean "the server cannot be reached", as opposed to an HTTP answer. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** An SDK `Transport` to a remote MCP server. Single use, like the stdio one. */
export class RemoteServerTransport implements SessionTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  closeReport: CloseReport | undefined;
  lastMessageAt = 0;
  readonly mode: RemoteTransportMode;
  /** The server's last "not now" (429, 503…) with its Retry-After: a failed start then waits and retries. */
  refusal: TemporaryRefusal | undefined;
  /** Until when (epoch ms) the server asked not to be sent anything (its Retry-After). */
  private quietUntil = 0;
  private readonly inner: StreamableHTTPClientTransport | SSEClientTransport;
  private closing = false;
  private closed = false;
  private readonly gate: NotificationGate<JSONRPCMessage>;

  constructor(private readonly options: RemoteTransportOptions) {
    this.mode = options.mode;
    this.gate = new NotificationGate<JSONRPCMessage>({
      budget: options.notificationBudget,
      release: (message) => this.deliver(message),
      holdKey: (method, message) =>
        holdKeyOf(
          method,
          () => (message as { params?: { progressToken?: unknown } }).params?.progressToken,
          () => JSON.stringify(message),
        ),
      onDropped: (report) => options.onWarning?.(describeDrops(options.serverName, report)),
    });
    const fetchFn = this.buildFetch();
    const authProvider = options.auth?.authProvider;
    this.inner =
      options.mode === 'sse'
        ? new SSEClientTransport(options.url, { authProvider, fetch: fetchFn })
        : new StreamableHTTPClientTransport(options.url, {
            authProvider,
            fetch: fetchFn,
            // Step-up needs the user in a browser; the OAuth seam turns the error into "Sign in again".
            onInsufficientScope: 'throw',
          });
    this.inner.onmessage = (message: JSONRPCMessage) => {
      this.lastMessageAt = Date.now();
      if (isNotification(message)) {
        if (!this.gate.admit(message.method, message)) return;
      } else this.gate.beforeOther();
      this.deliver(message);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () =>
      this.finish(this.closing ? { reason: 'closed-by-host' } : { reason: 'connection-lost', detail: 'the server closed the connection' });
  }

  /** Streamable HTTP gives each request its own response stream (the SDK cancels 2026-era requests by aborting it). */
  get hasPerRequestStream(): boolean {
    return this.mode === 'streamable-http';
  }

  /** The 2025-era session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.inner instanceof StreamableHTTPClientTransport ? this.inner.sessionId : undefined;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.options.onWire?.('out', message, byteLength(message));
    const hadSession = this.sessionId !== undefined;
    try {
      const inner = this.inner;
      await (inner instanceof StreamableHTTPClientTransport ? inner.send(message, options) : inner.send(message));
    } catch (error) {
      this.options.auth?.observeError(error);
      if (!this.closing) this.noticeLoss(error, hadSession && !isInitializeRequest(message));
      throw error;
    }
  }

  close(): Promise<void> {
    this.closing = true;
    return this.inner.close();
  }

  /** Ends a 2025-era session with DELETE (best effort, bounded), then closes. Nothing to kill: resolves undefined. */
  async shutdown(): Promise<undefined> {
    if (this.closed) return undefined;
    this.closing = true;
    const inner = this.inner;
    if (inner instanceof StreamableHTTPClientTransport && inner.sessionId && this.closeReport?.reason !== 'session-expired') {
      await withTimeout(
        inner.terminateSession().catch(() => undefined),
        this.options.terminateTimeoutMs ?? 2_000,
      );
    }
    await inner.close().catch(() => undefined);
    this.finish({ reason: 'closed-by-host' });
    return undefined;
  }

  /**
   * A send failed. The server forgetting our session (404 to a request carrying it) or the network
   * failing means this connection is over: close with a report saying which, so the session's owner
   * re-initializes or reconnects. Any other failure (an HTTP error answer) belongs to that request only.
   */
  private noticeLoss(error: unknown, carriedSession: boolean): void {
    if (carriedSession && isSessionGone(error)) {
      this.finish({
        reason: 'session-expired',
        detail: `the server no longer knows this session (HTTP ${(error as SdkHttpError).status})`,
      });
      void this.inner.close().catch(() => undefined);
      return;
    }
    const network = describeNetworkError(error);
    if (network) {
      this.finish({ reason: 'connection-lost', detail: network });
      void this.inner.close().catch(() => undefined);
    }
  }

  private deliver(message: JSONRPCMessage): void {
    this.options.onWire?.('in', message, byteLength(message));
    this.onmessage?.(message);
  }

  private finish(report: CloseReport): void {
    if (this.closed) return;
    this.closed = true;
    this.gate.close();
    this.closeReport = report;
    this.onclose?.();
  }

  /** Static headers on requests to the server's origin only; then the OAuth seam's wrapper (SSRF checks on its hops). */
  private buildFetch(): FetchLike {
    const base = this.options.fetch ?? fetch;
    const origin = this.options.url.origin;
    const staticHeaders = Object.entries(this.options.headers);
    const withHeaders: FetchLike = (input, init) => {
      const trace = traceHeadersOf(init?.body);
      if ((staticHeaders.length === 0 && !trace) || new URL(String(input instanceof Request ? input.url : input)).origin !== origin)
        return base(input, init);
      const headers = new Headers(init?.headers);
      // The transport's own headers (session, protocol version, Authorization from OAuth) win.
      for (const [key, value] of staticHeaders) if (!headers.has(key)) headers.set(key, value);
      // A request's trace context (in its _meta while telemetry export is on) goes as headers too.
      for (const [key, value] of trace ?? []) headers.set(key, value);
      return base(input, { ...init, headers });
    };
    const wrapped = this.options.auth ? this.options.auth.wrapFetch(withHeaders) : withHeaders;
    return async (input, init) => {
      // The server asked us to wait: the SDK's next request (its probe refused, it goes on to
      // initialize) is answered here with the same refusal instead of being sent.
      const waitMs = this.quietUntil - Date.now();
      if (this.refusal && waitMs > 0 && new URL(String(input instanceof Request ? input.url : input)).origin === origin) {
        return refusedAgain(this.refusal, waitMs);
      }
      // A signal of the request's own (see request-signal.ts: the SDK's long-lived one collected listeners).
      const link = linkSignal(init?.signal);
      let response: Response;
      try {
        response = await wrapped(input, link ? { ...init, signal: link.signal } : init);
      } catch (error) {
        link?.release();
        throw error;
      }
      // The SDK's errors carry the status, not the headers: keep what a refusal said about waiting.
      if (isTemporaryStatus(response.status)) {
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
        this.refusal = { status: response.status, statusText: response.statusText, retryAfterMs };
        this.quietUntil = Date.now() + (retryAfterMs ?? 0);
      }
      return this.watchResponse(init, response, link);
    };
  }

  /**
   * The request's own signal is released once its body is over. And a 2026-era request (the SDK marks
   * those, and only those, with `Mcp-Method`) answered with an SSE stream: a network failure while
   * reading it means the server went away mid-call. The SDK only reports that through `onerror` as
   * text, and the 2026 era has no resumption, so the call would wait for its timeout: report the loss
   * instead (the client then fails the call at once and the connection reconnects). 2025-era streams
   * are left alone: their health pings catch a dead server.
   */
  private watchResponse(init: RequestInit | undefined, response: Response, link: LinkedSignal | undefined): Response {
    const sse = response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream');
    const modernStream = response.ok && sse && new Headers(init?.headers).has('mcp-method');
    if (!link && !modernStream) return response;
    return watchBody(response, {
      onSettled: link?.release,
      onError: modernStream ? (error) => !this.closing && this.noticeLoss(error, false) : undefined,
    });
  }
}

/**
 * The spec's answer to an unknown session is 404. Servers built on older SDKs that restarted answer
 * 400 "No valid session ID provided" instead; re-initializing is the right move for both.
 */
function isSessionGone(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  if (error.status === 404) return true;
  const text = typeof error.data?.text === 'string' ? error.data.text : '';
  return error.status === 400 && /session/i.test(text);
}

/** "connection refused (127.0.0.1:3001)" for a network failure; undefined for anything else. */
export function describeNetworkError(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && NETWORK_CODES.has(code)) {
      const where = (e as { address?: string; port?: number }).address;
      const port = (e as { port?: number }).port;
      const words: Record<string, string> = {
        ECONNREFUSED: 'connection refused',
        ECONNRESET: 'connection reset',
        ENOTFOUND: 'host not found',
        EAI_AGAIN: 'host lookup failed',
        ETIMEDOUT: 'connection timed out',
        UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
        EHOSTUNREACH: 'host unreachable',
        UND_ERR_SOCKET: 'the connection dropped',
        EPIPE: 'the connection dropped',
        ENETUNREACH: 'network unreachable',
      };
      return `${words[code] ?? code.toLowerCase()}${where ? ` (${where}${port ? `:${port}` : ''})` : ''}`;
    }
    if (e instanceof TypeError && e.message === 'fetch failed' && !(e.cause instanceof Error)) return 'the network request failed';
  }
  return undefined;
}

/** The refusal the server gave, repeated for a request it asked us not to send yet. */
function refusedAgain(refusal: TemporaryRefusal, waitMs: number): Response {
  return new Response(JSON.stringify({ error: `${refusal.statusText || 'Refused'}: asked to wait` }), {
    status: refusal.status,
    statusText: refusal.statusText,
    headers: { 'content-type': 'application/json', 'retry-after': String(Math.ceil(waitMs / 1000)) },
  });
}

function byteLength(message: JSONRPCMessage): number {
  return Buffer.byteLength(JSON.stringify(message));
}
