/**
 * W3C trace context as HTTP headers for a remote server (SEP-414: "HTTP headers as well"): a request
 * whose `params._meta` carries `traceparent` (and `tracestate`) sends the same values as headers, so
 * an HTTP server's own tracing middleware joins the trace too. Read from the body as sent (a cheap
 * scan, only when the body names a traceparent), so the transport needs no part of telemetry.
 */
const TRACEPARENT = /"traceparent":"(00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2})"/;
const TRACESTATE = /"tracestate":"([\x20-\x21\x23-\x5b\x5d-\x7e]{1,512})"/;

/** The trace headers a request body carries in its `_meta`, or undefined. */
export function traceHeadersOf(body: unknown): [string, string][] | undefined {
  if (typeof body !== 'string' || !body.includes('"traceparent":"')) return undefined;
  const parent = TRACEPARENT.exec(body)?.[1];
  if (!parent) return undefined;
  const state = TRACESTATE.exec(body)?.[1];
  return state
    ? [
        ['traceparent', parent],
        ['tracestate', state],
      ]
    : [['traceparent', parent]];
}
