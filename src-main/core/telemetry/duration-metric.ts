import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  type CollectionResult,
  type HistogramMetricData,
  type MetricProducer,
} from '@opentelemetry/sdk-metrics';
import type { Resource } from '@opentelemetry/resources';
import { hrTime } from './export-span';

/** The SDK's default explicit buckets for a histogram without advice (what the SDK's instrument used here). */
const BOUNDARIES = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];

/** Attribute sets kept at most, as the SDK's default cardinality limit; the rest go to one overflow set. */
const MAX_SETS = 2_000;
const OVERFLOW = 'otel.metric.overflow';

/** One attribute set's histogram (a data point in the making). */
interface Point {
  attributes: Attributes;
  start: HrTime;
  counts: number[];
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * `mcp.client.operation.duration`, aggregated here and handed to the SDK's metric reader (and its OTLP
 * exporter) as the SDK's own histogram data at collect time. Why not the SDK's `Histogram.record`: it
 * turns the attributes into a key on every record (sorts the keys, `JSON.stringify`s them) — most of
 * ≈ 7 µs a tool call in the bench's profile. Here the caller names the attribute set with a cheap key
 * of its own, and the attributes object is made once per key (`attributesMade` counts them; a test
 * holds it to one per set).
 */
export class DurationMetric implements MetricProducer {
  private readonly points = new Map<string, Point>();
  /** Attribute objects made: one per distinct attribute set (per collection, with delta temporality). */
  attributesMade = 0;

  constructor(
    private readonly scope: { name: string; version: string },
    private readonly resource: Resource,
    /** The reader's temporality for histograms (the exporter's preference, cumulative by default). */
    private readonly temporality: () => AggregationTemporality,
    private readonly now: () => number = Date.now,
  ) {}

  /** One duration in seconds; `key` names the attribute set, `attributes` makes it (only the first time). */
  record(seconds: number, key: string, attributes: () => Attributes): void {
    if (Number.isNaN(seconds)) return;
    let point = this.points.get(key);
    if (!point && this.points.size >= MAX_SETS - 1) {
      key = OVERFLOW;
      attributes = () => ({ [OVERFLOW]: true });
      point = this.points.get(key);
    }
    if (!point) {
      this.attributesMade++;
      point = {
        attributes: Object.freeze(attributes()),
        start: hrTime(this.now()),
        counts: new Array<number>(BOUNDARIES.length + 1).fill(0),
        count: 0,
        sum: 0,
        min: Infinity,
        max: -Infinity,
      };
      this.points.set(key, point);
    }
    let bucket = 0;
    while (bucket < BOUNDARIES.length && seconds > BOUNDARIES[bucket]!) bucket++;
    point.counts[bucket]!++;
    point.count++;
    point.sum += seconds;
    if (seconds < point.min) point.min = seconds;
    if (seconds > point.max) point.max = seconds;
  }

  async collect(): Promise<CollectionResult> {
    const end = hrTime(this.now());
    const temporality = this.temporality();
    const metric: HistogramMetricData = {
      descriptor: {
        name: 'mcp.client.operation.duration',
        unit: 's',
        description: 'Duration of an MCP request as the client sees it',
        valueType: ValueType.DOUBLE,
      },
      aggregationTemporality: temporality,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: [...this.points.values()].map((p) => ({
        startTime: p.start,
        endTime: end,
        attributes: p.attributes,
        value: { buckets: { boundaries: BOUNDARIES, counts: [...p.counts] }, count: p.count, sum: p.sum, min: p.min, max: p.max },
      })),
    };
    // Delta: each collection reports what was recorded since the last one.
    if (temporality === AggregationTemporality.DELTA) this.points.clear();
    return {
      resourceMetrics: {
        resource: this.resource,
        scopeMetrics: metric.dataPoints.length > 0 ? [{ scope: this.scope, metrics: [metric] }] : [],
      },
      errors: [],
    };
  }
}
