import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import type { TimelineSpan } from '@contract';
import type { ExportSpan } from './export-span';
import type { OtelExport } from './otel-export';

/** What the host knows of a server's session, for the `mcp.*` attributes. */
export interface ServerFacts {
  name: string;
  protocolVersion?: string;
  /** `pipe` for stdio, `tcp` for HTTP (OTel's network.transport values). */
  transport?: 'pipe' | 'tcp';
  sessionId?: string;
}

/**
 * The span of a timeline bar, named and attributed per the MCP and GenAI semantic conventions:
 * a turn is `invoke_agent`, a model request `chat {model}`, a tool call the client span
 * `tools/call {tool}`; consent waits and server requests are internal spans of the call.
 */
export function startOtelSpan(
  otel: OtelExport,
  view: TimelineSpan,
  start: number,
  parent: ExportSpan | undefined,
  facts: ServerFacts | undefined,
  extra: Attributes = {},
): ExportSpan {
  const context = parent;
  switch (view.kind) {
    case 'turn':
      return otel.startSpan(
        'invoke_agent patchbay',
        SpanKind.INTERNAL,
        start,
        { 'gen_ai.operation.name': 'invoke_agent', ...extra },
        context,
      );
    case 'model':
      return otel.startSpan(
        `chat ${view.model ?? ''}`.trim(),
        SpanKind.CLIENT,
        start,
        { 'gen_ai.operation.name': 'chat', ...extra },
        context,
      );
    case 'tool':
      return otel.startSpan(
        `tools/call ${view.tool}`,
        SpanKind.CLIENT,
        start,
        Object.assign(
          { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': view.tool, 'gen_ai.operation.name': 'execute_tool' },
          facts && serverAttributes(facts),
          extra,
        ),
        context,
      );
    default:
      return otel.startSpan(view.label, SpanKind.INTERNAL, start, { 'patchbay.timeline.kind': view.kind, ...extra }, context);
  }
}

export function serverAttributes(facts: ServerFacts | undefined): Attributes {
  if (!facts) return {};
  const attributes: Attributes = { 'server.address': facts.name };
  if (facts.protocolVersion) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.transport) attributes['network.transport'] = facts.transport;
  if (facts.sessionId) attributes['mcp.session.id'] = facts.sessionId;
  return attributes;
}

/**
 * One `mcp.client.operation.duration` measurement: its attribute set is named by a string key of its
 * values, and the attributes object is made only for a set not seen before (see `DurationMetric`).
 */
export function recordDuration(
  otel: OtelExport | undefined,
  seconds: number,
  method: string,
  facts: ServerFacts | undefined,
  tool?: string,
  error?: string,
): void {
  if (!otel) return;
  const server = facts ? `${facts.name}\n${facts.protocolVersion ?? ''}\n${facts.transport ?? ''}\n${facts.sessionId ?? ''}` : '\0';
  otel.recordDuration(seconds, `${method}\n${tool ?? '\0'}\n${error ?? ''}\n${server}`, () => ({
    'mcp.method.name': method,
    ...(tool !== undefined ? { 'gen_ai.tool.name': tool } : {}),
    ...serverAttributes(facts),
    ...(error ? { 'error.type': error } : {}),
  }));
}

/** Ends a span with what the bar learnt (tokens, the call's request id, how it ended). */
export function endOtelSpan(span: ExportSpan, view: TimelineSpan, end: number, extra: Attributes = {}): void {
  if (view.model) {
    span.setAttribute('gen_ai.request.model', view.model);
    span.setAttribute('gen_ai.response.model', view.model);
    span.updateName(`chat ${view.model}`);
  }
  if (view.inputTokens !== undefined) span.setAttribute('gen_ai.usage.input_tokens', view.inputTokens);
  if (view.outputTokens !== undefined) span.setAttribute('gen_ai.usage.output_tokens', view.outputTokens);
  span.setAttributes(extra);
  const error = errorType(view);
  if (error) {
    span.setAttribute('error.type', error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: view.status });
  }
  span.end(end);
}

/** `error.type` of a bar that failed: `tool_error` for an `isError` result (the MCP conventions). */
export function errorType(view: TimelineSpan): string | undefined {
  if (view.kind !== 'tool' || !view.status || view.status === 'ok') return undefined;
  return view.status;
}
