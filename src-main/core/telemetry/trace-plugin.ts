import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import { initiatorOf } from '../servers/sdk-internals/wire-initiator';
import type { ServerFacts } from './otel-spans';
import { formatTraceparent, withTraceContext } from './trace-context';
import type { TurnRecorder } from './turn-recorder';

type Request = { method: string; params?: Record<string, unknown> };
type RequestFn = (request: Request, ...rest: unknown[]) => Promise<unknown>;

/** The request with its span's W3C trace context in `params._meta` (SEP-414); the caller's own `_meta` kept. */
function carrying(request: Request, context: { traceId: string; spanId: string }): Request {
  return { ...request, params: withTraceContext(request.params, formatTraceparent(context.traceId, context.spanId)) };
}

/**
 * The request path's part of telemetry, on every connection: each request to a server (all but the
 * handshake and pings) carries the W3C trace context of its span in `params._meta` (SEP-414) while
 * export and propagation are on — a tool call's bar, or the request's own span (`RequestSpans`);
 * what crosses the wire tells the recorder each call's request id, sizes and `isError`; the
 * session's facts (protocol version, transport) name the spans. A `traceparent` arriving from a
 * server is read strictly: a malformed one is ignored.
 */
export function tracePlugin(deps: {
  recorder: TurnRecorder;
  facts: Map<string, ServerFacts>;
  /** Whether requests carry trace context now (export on, propagation not switched off). */
  propagating(): boolean;
}): ConnectionPlugin {
  return {
    install(client: Client, server) {
      // `request` is the SDK's public method every request (callTool included) goes through.
      const seam = client as unknown as { request: RequestFn };
      const original = seam.request.bind(client);
      seam.request = (request, ...rest) => {
        if (request.method === 'tools/call') {
          // A tool call's span is its timeline bar, started before the request (consent, the call stream).
          if (!deps.propagating()) return original(request, ...rest);
          const context = deps.recorder.pendingCall(server.id, String(request.params?.name ?? ''))?.otel?.spanContext();
          return context ? original(carrying(request, context), ...rest) : original(request, ...rest);
        }
        const traced = deps.recorder.startRequest(server.id, request.method, request.params);
        if (!traced) return original(request, ...rest);
        const sent = deps.propagating() ? original(carrying(request, traced.span.spanContext()), ...rest) : original(request, ...rest);
        sent.then(
          () => traced.settle(),
          (error: unknown) => traced.settle(error ?? new Error('failed')),
        );
        return sent;
      };
    },
    onStateChange(server, state) {
      const facts = deps.facts.get(server.id) ?? { name: server.name };
      facts.name = server.name;
      if (state.status === 'ready') {
        facts.protocolVersion = state.server.protocolVersion;
      }
      deps.facts.set(server.id, facts);
    },
    onLaunch(server, launch) {
      const facts = deps.facts.get(server.id) ?? { name: server.name };
      facts.transport = launch.command ? 'pipe' : 'tcp';
      deps.facts.set(server.id, facts);
    },
    onRemoved(server) {
      deps.facts.delete(server.id);
      deps.recorder.serverRequests.forgetServer(server.id);
    },
    onWire(server, direction, message: JSONRPCMessage, bytes) {
      const m = message as { id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };
      if (m.id === undefined) return;
      if (direction === 'out' && m.method)
        deps.recorder.onRequestSent(server.id, { id: m.id, method: m.method, params: m.params, bytes, initiator: initiatorOf(message) });
      else if (direction === 'in' && !m.method) deps.recorder.onResponse(server.id, m.id, bytes, m.result);
      // A server's own requests (sampling, elicitation) are nested under its running call by the
      // recorder, their ids kept for their bars' Protocol log lines; whatever trace context they carry
      // is never adopted, so a malformed one changes nothing.
      else if (direction === 'in') deps.recorder.serverRequests.arrived(server.id, m.method!, m.id);
      else deps.recorder.serverRequests.answered(server.id, m.id);
    },
  };
}
