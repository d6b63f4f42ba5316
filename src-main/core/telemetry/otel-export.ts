import { ROOT_CONTEXT, SpanKind, trace, type Attributes, type Context, type Span, type Tracer, type Histogram } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol } from '@contract';
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
 * One export pipeline: a tracer whose spans go through the bounded queue to the OTLP exporter, and
 * the `mcp.client.operation.duration` histogram (metrics go over OTLP/HTTP JSON). Made when the user
 * turns export on; shut down when it is turned off or changed.
 */
export class OtelExport {
  readonly tracer: Tracer;
  readonly queue: BoundedSpanQueue;
  private readonly provider: BasicTracerProvider;
  private readonly meters: MeterProvider;
  private readonly duration: Histogram;

  constructor(target: ExportTarget, version: string, onChange: () => void) {
    const resource = resourceFromAttributes({ 'service.name': 'patchbay', 'service.version': version });
    this.queue = new BoundedSpanQueue(spanExporterFor(target), onChange);
    this.provider = new BasicTracerProvider({ resource, spanProcessors: [this.queue] });
    this.tracer = this.provider.getTracer('patchbay', version);
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

  startSpan(name: string, kind: SpanKind, start: number, attributes: Attributes, parent?: Context): Span {
    return this.tracer.startSpan(name, { kind, startTime: start, attributes }, parent);
  }

  /** A context whose active span is `span` (the parent of the spans started with it). */
  contextOf(span: Span): Context {
    return trace.setSpan(ROOT_CONTEXT, span);
  }

  recordDuration(seconds: number, attributes: Attributes): void {
    this.duration.record(seconds, attributes);
  }

  async shutdown(): Promise<void> {
    await Promise.allSettled([this.provider.shutdown(), this.meters.shutdown()]);
  }
}
