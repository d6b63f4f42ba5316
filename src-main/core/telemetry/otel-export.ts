import type { Attributes, SpanKind } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InstrumentType, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol } from '@contract';
import { DurationMetric } from './duration-metric';
import { ExportSpan, type SpanShared } from './export-span';
import { BoundedSpanQueue } from './span-queue';

/** Longest wait for the last exports when a pipeline shuts down (see `OtelExport.shutdown`). */
const SHUTDOWN_WAIT_MS = 2_000;

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
  readonly duration: DurationMetric;

  constructor(target: ExportTarget, version: string, onChange: () => void) {
    const resource = resourceFromAttributes({ 'service.name': 'patchbay', 'service.version': version });
    this.queue = new BoundedSpanQueue(spanExporterFor(target), onChange);
    const queue = this.queue;
    const scope = { name: 'patchbay', version };
    this.shared = { resource, instrumentationScope: scope, onEnd: (span) => queue.onEnd(span) };
    // The duration histogram is aggregated by `DurationMetric` and collected by the SDK's reader, which
    // exports it with the SDK's OTLP exporter (the meter provider binds the reader; it has no instruments).
    this.duration = new DurationMetric(scope, resource, () => reader.selectAggregationTemporality(InstrumentType.HISTOGRAM));
    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: signalUrl(target.endpoint, 'metrics'), headers: target.headers, timeoutMillis: 10_000 }),
      exportIntervalMillis: 30_000,
      exportTimeoutMillis: 10_000,
      metricProducers: [this.duration],
    });
    this.meters = new MeterProvider({ resource, readers: [reader] });
  }

  /** A span from `start` (ms since the epoch), under `parent` (in its trace) or the root of a new trace. */
  startSpan(name: string, kind: SpanKind, start: number, attributes: Attributes, parent?: ExportSpan): ExportSpan {
    return new ExportSpan(name, kind, start, attributes, parent, this.shared);
  }

  /** `mcp.client.operation.duration`: `key` names the attribute set, `attributes` makes it (once per set). */
  recordDuration(seconds: number, key: string, attributes: () => Attributes): void {
    this.duration.record(seconds, key, attributes);
  }

  /**
   * The last spans and the metric go out, waited for at most `SHUTDOWN_WAIT_MS`: the SDK's exporters
   * retry a refused endpoint with backoff for ≈ 8.5 s, which would hold up quitting and switching export
   * off or to another endpoint. A batch still in flight then is not counted.
   */
  async shutdown(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      timer.unref?.();
    });
    await Promise.race([Promise.allSettled([this.queue.shutdown(), this.meters.shutdown()]), bound]);
    clearTimeout(timer);
  }
}
