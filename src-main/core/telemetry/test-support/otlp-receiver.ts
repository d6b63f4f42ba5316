import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/JSON attribute value as it arrives. */
type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values: AnyValue[] };
};

/** A span as decoded from an OTLP/HTTP JSON export. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** A histogram data point as decoded from an OTLP/HTTP JSON export of metrics. */
export interface ReceivedHistogramPoint {
  metric: string;
  unit?: string;
  attributes: Record<string, unknown>;
  count: number;
  sum?: number;
  bucketCounts: number[];
}

/**
 * A local OTLP/HTTP receiver: decodes each JSON export of spans (`/v1/traces`) and of histograms
 * (`/v1/metrics`), keeps protobuf
 * bodies as they came (their bytes are checked for ids and names), and answers 200, or nothing at
 * all while `stall` is set (a slow endpoint).
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const protobufBodies: Buffer[] = [];
  const metricPosts: unknown[] = [];
  const histograms: ReceivedHistogramPoint[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  let stall = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (stall) return; // never answered
      const body = Buffer.concat(chunks);
      headers.push(req.headers);
      if (req.url === '/v1/metrics') {
        metricPosts.push(body.length);
        histograms.push(...decodeHistograms(body.toString('utf8')));
      } else if (req.headers['content-type']?.includes('protobuf')) protobufBodies.push(body);
      else spans.push(...decodeJson(body.toString('utf8')));
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' });
      res.end(req.headers['content-type']?.includes('protobuf') ? '' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    protobufBodies,
    metricPosts,
    histograms,
    headers,
    set stall(value: boolean) {
      stall = value;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function decodeJson(text: string): ReceivedSpan[] {
  const body = JSON.parse(text) as {
    resourceSpans?: {
      scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes'> & { attributes?: { key: string; value: AnyValue }[] })[] }[];
    }[];
  };
  return (body.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span) => ({
        ...span,
        attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
      })),
    ),
  );
}

type KeyValues = { key: string; value: AnyValue }[];

function decodeHistograms(text: string): ReceivedHistogramPoint[] {
  const body = JSON.parse(text) as {
    resourceMetrics?: {
      scopeMetrics?: {
        metrics?: {
          name: string;
          unit?: string;
          histogram?: {
            dataPoints?: { attributes?: KeyValues; count: string | number; sum?: number; bucketCounts?: (string | number)[] }[];
          };
        }[];
      }[];
    }[];
  };
  return (body.resourceMetrics ?? []).flatMap((rm) =>
    (rm.scopeMetrics ?? []).flatMap((sm) =>
      (sm.metrics ?? []).flatMap((metric) =>
        (metric.histogram?.dataPoints ?? []).map((point) => ({
          metric: metric.name,
          unit: metric.unit,
          attributes: Object.fromEntries((point.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
          count: Number(point.count),
          sum: point.sum,
          bucketCounts: (point.bucketCounts ?? []).map(Number),
        })),
      ),
    ),
  );
}

function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return value.arrayValue.values.map(valueOf);
  return undefined;
}
