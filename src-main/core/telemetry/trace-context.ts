/**
 * W3C Trace Context (`traceparent`, `tracestate`) as SEP-414 carries it in `params._meta`: written
 * for requests to servers. The host never reads a server's trace context (a sampling request's
 * `traceparent`, malformed or not, joins nothing: telemetry-sampling.test.ts), so there is no parser.
 */

export function formatTraceparent(traceId: string, spanId: string, sampled = true): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

/** `_meta` of a request with the trace context added (the caller's own keys kept). */
export function withTraceContext(params: unknown, traceparent: string, tracestate?: string): Record<string, unknown> {
  const base = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const meta = base._meta && typeof base._meta === 'object' ? (base._meta as Record<string, unknown>) : {};
  return { ...base, _meta: { ...meta, traceparent, ...(tracestate ? { tracestate } : {}) } };
}
