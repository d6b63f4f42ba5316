import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ExportSpan, type SpanShared } from './export-span';
import { BoundedSpanQueue, MAX_QUEUED_SPANS } from './span-queue';
import { formatTraceparent, withTraceContext } from './trace-context';

/** An exporter whose endpoint never answers (a slow or hung collector). */
function hungExporter() {
  const batches: ReadableSpan[][] = [];
  const exporter: SpanExporter = {
    export: (spans) => void batches.push(spans),
    shutdown: async () => undefined,
  };
  return { exporter, batches };
}

describe('the span queue', () => {
  it('holds at most its bound while the endpoint hangs: a 2,000-call turn is bounded, the rest counted, one export in flight', () => {
    const { exporter, batches } = hungExporter();
    const queue = new BoundedSpanQueue(exporter);
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    // 2,000 calls, each a consent wait and a call, under one turn: 4,001 spans.
    const turn = tracer.startSpan('invoke_agent patchbay', {}, ROOT_CONTEXT);
    for (let i = 0; i < 2_000; i++) {
      tracer.startSpan('Waiting for your answer').end();
      tracer.startSpan('tools/call echo', { kind: SpanKind.CLIENT }).end();
    }
    turn.end();
    expect(batches).toHaveLength(1); // the first full batch went out and never came back
    expect(queue.pending).toBeLessThanOrEqual(MAX_QUEUED_SPANS);
    expect(queue.pending + batches[0]!.length + queue.dropped).toBe(4_001);
    expect(queue.dropped).toBeGreaterThan(0);
  });

  it('counts a failed batch as dropped and names the failure, without retrying it', async () => {
    let calls = 0;
    const exporter: SpanExporter = {
      export: (_spans, done) => {
        calls++;
        done({ code: 1, error: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      },
      shutdown: async () => undefined,
    };
    const queue = new BoundedSpanQueue(exporter);
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    for (let i = 0; i < 3; i++) tracer.startSpan('x').end();
    await queue.forceFlush();
    expect(calls).toBe(1);
    expect(queue.dropped).toBe(3);
    expect(queue.lastError).toContain('connection refused');
  });
});

describe('trace context', () => {
  it('writes a version-00 traceparent into _meta, keeping the request’s own keys', () => {
    const traceparent = formatTraceparent('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331');
    expect(withTraceContext({ name: 'x', _meta: { progressToken: 1 } }, traceparent)).toEqual({
      name: 'x',
      _meta: { progressToken: 1, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
  });
});

describe('an exported bar (ExportSpan)', () => {
  it('is a ReadableSpan of its recorded times: its parent’s trace, a fresh span id, ended once, nothing changed after', () => {
    const ended: ReadableSpan[] = [];
    const shared: SpanShared = {
      resource: resourceFromAttributes({ 'service.name': 'patchbay' }),
      instrumentationScope: { name: 'patchbay' },
      onEnd: (span) => ended.push(span),
    };
    const turn = new ExportSpan('invoke_agent patchbay', SpanKind.INTERNAL, 1_700_000_000_000, {}, undefined, shared);
    const call = new ExportSpan('tools/call echo', SpanKind.CLIENT, 1_700_000_000_250.5, { 'gen_ai.tool.name': 'echo' }, turn, shared);
    expect(turn.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(call.spanContext().traceId).toBe(turn.spanContext().traceId);
    expect(call.spanContext().spanId).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
    expect(call.spanContext().spanId).not.toBe(turn.spanContext().spanId);
    expect(call.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(call.startTime).toEqual([1_700_000_000, 250_500_000]);
    call.setAttribute('jsonrpc.request.id', '7');
    call.end(1_700_000_001_000);
    call.end(1_700_000_002_000);
    call.setAttribute('late', 'ignored');
    expect(ended).toEqual([call]);
    expect(call.duration).toEqual([0, 749_500_000]);
    expect(call.attributes).toEqual({ 'gen_ai.tool.name': 'echo', 'jsonrpc.request.id': '7' });
  });
});
