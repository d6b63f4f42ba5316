/**
 * W3C Trace Context (`traceparent`, `tracestate`) as SEP-414 carries it in `params._meta`: written
 * for requests to servers, and read strictly — a malformed value from a server is ignored, never
 * trusted or echoed.
 */

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZEROS_32 = '0'.repeat(32);
const ZEROS_16 = '0'.repeat(16);

export interface TraceParent {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

/** The parsed header, or undefined for anything that is not a valid version-00 traceparent. */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string' || value.length !== 55) return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match || match[1] === ZEROS_32 || match[2] === ZEROS_16) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, sampled: (parseInt(match[3]!, 16) & 1) === 1 };
}

export function formatTraceparent(traceId: string, spanId: string, sampled = true): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

/** `_meta` of a request with the trace context added (the caller's own keys kept). */
export function withTraceContext(params: unknown, traceparent: string, tracestate?: string): Record<string, unknown> {
  const base = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const meta = base._meta && typeof base._meta === 'object' ? (base._meta as Record<string, unknown>) : {};
  return { ...base, _meta: { ...meta, traceparent, ...(tracestate ? { tracestate } : {}) } };
}
