import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ExportSpan } from './export-span';
import type { OtelExport } from './otel-export';
import { recordDuration, serverAttributes, type ServerFacts } from './otel-spans';

/** Requests that are no operation of their own: the handshake and liveness checks carry no trace context. */
const UNTRACED = new Set(['initialize', 'ping']);

/** Spans kept waiting for their request id at most (a request never sent is let go). */
const MAX_UNBOUND = 256;

/**
 * The client span of each request to a server other than `tools/call` (whose span is its timeline
 * bar): `resources/read`, `prompts/get`, `completion/complete`, the lists, `tasks/*`… Named
 * `{mcp.method.name} {target}` per the MCP conventions; under the running tool call on the same
 * server when there is one (a task's polling, what the call caused), else the root of its own
 * trace. Exists only while export is on.
 */
export class RequestSpans {
  private readonly unbound = new Map<string, ExportSpan>();

  /** The span of a request about to be sent, or undefined (export off, or a method not traced). */
  start(
    otel: OtelExport | undefined,
    method: string,
    params: Record<string, unknown> | undefined,
    facts: ServerFacts | undefined,
    parent: ExportSpan | undefined,
    now: number,
  ): ExportSpan | undefined {
    if (!otel || UNTRACED.has(method) || method === 'tools/call') return undefined;
    const target = targetOf(method, params);
    const attributes = { 'mcp.method.name': method, ...serverAttributes(facts), ...target.attributes };
    const span = otel.startSpan(target.name ? `${method} ${target.name}` : method, SpanKind.CLIENT, now, attributes, parent);
    const spanId = span.spanContext().spanId;
    this.unbound.set(spanId, span);
    if (this.unbound.size > MAX_UNBOUND) this.unbound.delete(this.unbound.keys().next().value!);
    return span;
  }

  /** Whether a span waits for its request id (only while export is on): what the wire hook asks before reading trace context. */
  get waiting(): boolean {
    return this.unbound.size > 0;
  }

  /** The request left with this id: the span (named by the trace context it carried) records it. */
  sent(spanId: string | undefined, id: string | number): void {
    const span = spanId ? this.unbound.get(spanId) : undefined;
    if (!span) return;
    this.unbound.delete(spanId!);
    span.setAttribute('jsonrpc.request.id', String(id));
  }

  /** The request settled: the span ends, with `error.type` when it failed. */
  end(otel: OtelExport | undefined, span: ExportSpan, now: number, startedAt: number, error?: unknown): void {
    this.unbound.delete(span.spanContext().spanId);
    const errorType = error === undefined ? undefined : errorTypeOf(error);
    if (errorType) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? errorType });
    }
    span.end(now);
    recordDuration(otel, (now - startedAt) / 1000, String(span.attributes['mcp.method.name']), undefined, undefined, errorType);
  }
}

/** The span name's target and its attribute (the prompt's name; a resource's URI, kept out of the name). */
function targetOf(method: string, params: Record<string, unknown> | undefined): { name?: string; attributes: Record<string, string> } {
  if (method === 'prompts/get' && typeof params?.name === 'string')
    return { name: params.name, attributes: { 'gen_ai.prompt.name': params.name } };
  if (method.startsWith('resources/') && typeof params?.uri === 'string') return { attributes: { 'mcp.resource.uri': params.uri } };
  return { attributes: {} };
}

/** A JSON-RPC error's code (the conventions' `error.type` for one), else the error's name. */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number' || typeof code === 'string') return String(code);
  return (error as Error | undefined)?.name || 'Error';
}
