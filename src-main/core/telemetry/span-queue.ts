import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Most spans waiting for export; beyond it new spans are dropped (and counted), never queued. */
export const MAX_QUEUED_SPANS = 2_048;
const BATCH = 512;
const FLUSH_MS = 1_000;

/**
 * The span processor between the tracer and the OTLP exporter: a bounded queue, one export in
 * flight at a time, a failed batch counted as dropped and never retried here (the exporter's own
 * few retries are its business). So an endpoint that is down or slow costs a turn nothing: spans
 * pile up to the bound, then are counted and let go.
 */
export class BoundedSpanQueue implements SpanProcessor {
  private queue: ReadableSpan[] = [];
  private inFlight: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  dropped = 0;
  exported = 0;
  lastError: string | undefined;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly onChange: () => void = () => undefined,
  ) {}

  onStart(_span: Span, _context: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.queue.length >= MAX_QUEUED_SPANS) {
      this.dropped++;
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= BATCH) this.exportSoon(0);
    else this.exportSoon(FLUSH_MS);
  }

  /** Number of spans waiting. */
  get pending(): number {
    return this.queue.length;
  }

  async forceFlush(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight) {
      if (this.inFlight) await this.inFlight;
      else this.exportNow();
    }
  }

  async shutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // One last try, bounded by the exporter's own time-out; whatever fails is counted.
    await this.forceFlush().catch(() => undefined);
    await this.exporter.shutdown().catch(() => undefined);
  }

  private exportSoon(ms: number): void {
    if (this.inFlight) return;
    if (ms === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.exportNow();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.exportNow();
    }, ms);
    this.timer.unref?.();
  }

  private exportNow(): void {
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.queue.splice(0, BATCH);
    this.inFlight = new Promise<void>((resolve) => {
      this.exporter.export(batch, (result) => {
        if (result.code === 0) this.exported += batch.length;
        else {
          this.dropped += batch.length;
          this.lastError = describeExportError(result.error);
        }
        resolve();
      });
    }).finally(() => {
      this.inFlight = undefined;
      this.onChange();
      if (this.queue.length > 0) this.exportSoon(this.queue.length >= BATCH ? 0 : FLUSH_MS);
    });
  }
}

/** The exporter's error in words a user can act on. */
export function describeExportError(error: unknown): string {
  if (!error) return 'the endpoint refused the export';
  const err = error as { message?: string; code?: string | number; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  if (code === 'ECONNREFUSED') return 'connection refused (is the collector running?)';
  if (code === 'ENOTFOUND') return 'host not found';
  if (code === 'ETIMEDOUT' || /timeout/i.test(err.message ?? '')) return 'the endpoint did not answer in time';
  return err.message ?? String(error);
}
