/**
 * The export pipeline (`OtelExport`): `mcp.client.operation.duration` as `DurationMetric` aggregates
 * it, through the SDK's metric reader and OTLP exporter to a local receiver, with the counts that keep
 * its speed-up paying — one attributes object per attribute set, never one per call, and no attribute
 * hashing by the SDK; and a shutdown that an endpoint never answering cannot hold up past its bound.
 */
import { createRequire } from 'node:module';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DurationMetric } from './duration-metric';
import { OtelExport } from './otel-export';
import { recordDuration, type ServerFacts } from './otel-spans';
import { startOtlpReceiver } from './test-support/otlp-receiver';

// The SDK's per-record attribute hashing (what `Histogram.record` ran on every call before).
const sdkUtils = createRequire(import.meta.url)('@opentelemetry/sdk-metrics/build/src/utils.js') as {
  hashAttributes: (attributes: object) => string;
};

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await receiver?.stop();
  receiver = undefined;
});

const facts: ServerFacts = { name: 'echo', protocolVersion: '2025-11-25', transport: 'pipe' };

describe('mcp.client.operation.duration', () => {
  it('reaches the endpoint through the SDK exporter with the conventions’ attributes; one attributes object per set, no SDK hashing', async () => {
    receiver = await startOtlpReceiver();
    const hashes = vi.spyOn(sdkUtils, 'hashAttributes');
    const otel = new OtelExport({ endpoint: receiver.url, protocol: 'http/json', headers: {} }, 'test', () => undefined);
    for (let i = 0; i < 1_000; i++) recordDuration(otel, 0.002, 'tools/call', facts, 'echo');
    for (let i = 0; i < 10; i++) recordDuration(otel, 7, 'tools/call', facts, 'echo', 'tool_error');
    recordDuration(otel, 0.5, 'resources/read', undefined);
    // A server that now answers with another protocol version is another attribute set.
    recordDuration(otel, 0.002, 'tools/call', { ...facts, protocolVersion: '2026-07-28' }, 'echo');

    expect(otel.duration.attributesMade).toBe(4);
    expect(hashes).not.toHaveBeenCalled();

    await otel.shutdown(); // the reader's last collection and export
    const points = receiver.histograms.filter((p) => p.metric === 'mcp.client.operation.duration');
    expect(points).toHaveLength(4);
    expect(points.every((p) => p.unit === 's')).toBe(true);
    const ok = points.find((p) => p.count === 1_000)!;
    expect(ok.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'server.address': 'echo',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
    expect(ok.sum).toBeCloseTo(2, 6);
    const failed = points.find((p) => p.count === 10)!;
    expect(failed.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'error.type': 'tool_error' });
    // The SDK's default buckets: 7 s is above 5 and at most 10.
    expect(failed.bucketCounts[2]).toBe(10);
    expect(points.find((p) => p.attributes['mcp.method.name'] === 'resources/read')!.attributes).toEqual({
      'mcp.method.name': 'resources/read',
    });
  });

  it('cumulative keeps counting across collections; delta starts again; past the cardinality limit one overflow set', async () => {
    const resource = resourceFromAttributes({ 'service.name': 'patchbay' });
    let temporality = AggregationTemporality.CUMULATIVE;
    const metric = new DurationMetric({ name: 'patchbay', version: 'test' }, resource, () => temporality);
    const make = () => ({ 'mcp.method.name': 'tools/call' });
    metric.record(0.1, 'a', make);
    metric.record(Number.NaN, 'a', make);
    const count = async () => (await metric.collect()).resourceMetrics.scopeMetrics[0]?.metrics[0]?.dataPoints[0]?.value;
    expect(await count()).toMatchObject({ count: 1, sum: 0.1, min: 0.1, max: 0.1 });
    metric.record(0.3, 'a', make);
    expect(await count()).toMatchObject({ count: 2, max: 0.3 });
    temporality = AggregationTemporality.DELTA;
    expect(await count()).toMatchObject({ count: 2 });
    expect(await count()).toBeUndefined();
    for (let i = 0; i < 2_500; i++) metric.record(1, `tool-${i}`, () => ({ 'gen_ai.tool.name': `tool-${i}` }));
    const points = (await metric.collect()).resourceMetrics.scopeMetrics[0]!.metrics[0]!.dataPoints;
    expect(points).toHaveLength(2_000);
    expect(points.at(-1)).toMatchObject({ attributes: { 'otel.metric.overflow': true }, value: { count: 501 } });
  });
});

describe('a pipeline shutting down', () => {
  it('does not wait on an endpoint that never answers past its bound: the last batch is let go', async () => {
    receiver = await startOtlpReceiver();
    receiver.stall = true;
    const otel = new OtelExport({ endpoint: receiver.url, protocol: 'http/json', headers: {} }, 'test', () => undefined);
    recordDuration(otel, 0.1, 'tools/call', facts, 'echo');
    const span = otel.startSpan('tools/call echo', 2, Date.now(), {});
    span.end(Date.now());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let done = false;
      const shutdown = otel.shutdown().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(2_000);
      await shutdown;
      expect(done).toBe(true);
      expect(otel.queue.exported).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
