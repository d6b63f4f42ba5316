import type { Attributes, Histogram, SpanKind } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol } from '@contract';
import { ExportSpan, type SpanShared } from './export-span';
import { BoundedSpanQueue } from './span-queue';

/** Where and how to export (resolved from the setting or the environment, headers opened). */
export interface ExportTarget {
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
}

/** Each signal's path under a base endpoint, as every OTLP/HTTP SDK appends it. */
export function signalUrl(endpoint: string, signal: 'traces' | 'metrics'): string {
  const base = endpoint.replace(/\/+$/, '');
  return /\/v1\/(traces|metrics)$/.test(base) ? base.replace(/\/v1\/(traces|metrics)$/, `/v1/${signal}`) : `${base}/v1/${signal}`;
}

/** The OTLP/HTTP span exporter of the SDK for a target (json or protobuf). */
export function spanExporterFor(target: ExportTarget, timeoutMillis = 10_000): SpanExporter {
  const config = { url: signalUrl(target.endpoint, 'traces'), headers: target.headers, timeoutMillis, concurrencyLimit: 1 };
  return target.protocol === 'http/protobuf' ? new ProtoTraceExporter(config) : new JsonTraceExporter(config);
}

/**
 * One export pipeline: spans (`ExportSpan`, made from the timeline's bars) through the bounded queue
 * to the SDK's OTLP exporter, and the `mcp.client.operation.duration` histogram (metrics go over
 * OTLP/HTTP JSON). Made when the user turns export on; shut down when it is turned off or changed.
 */
export class OtelExport {
  readonly queue: BoundedSpanQueue;
  private readonly shared: SpanShared;
  private readonly meters: MeterProvider;
  private readonly duration: Histogram;

  constructor(target: ExportTarget, version: string, onChange: () => void) {
    const resource = resourceFromAttributes({ 'service.name': 'patchbay', 'service.version': version });
    this.queue = new BoundedSpanQueue(spanExporterFor(target), onChange);
    const queue = this.queue;
    this.shared = { resource, instrumentationScope: { name: 'patchbay', version }, onEnd: (span) => queue.onEnd(span) };
    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: signalUrl(target.endpoint, 'metrics'), headers: target.headers, timeoutMillis: 10_000 }),
      exportIntervalMillis: 30_000,
      exportTimeoutMillis: 10_000,
    });
    this.meters = new MeterProvider({ resource, readers: [reader] });
    this.duration = this.meters
      .getMeter('patchbay', version)
      .createHistogram('mcp.client.operation.duration', { unit: 's', description: 'Duration of an MCP request as the client sees it' });
  }

  /** A span from `start` (ms since the epoch), under `parent` (in its trace) or the root of a new trace. */
  startSpan(name: string, kind: SpanKind, start: number, attributes: Attributes, parent?: ExportSpan): ExportSpan {
    return new ExportSpan(name, kind, start, attributes, parent, this.shared);
  }

  recordDuration(seconds: number, attributes: Attributes): void {
    this.duration.record(seconds, attributes);
  }

  async shutdown(): Promise<void> {
    await Promise.allSettled([this.queue.shutdown(), this.meters.shutdown()]);
  }
}
