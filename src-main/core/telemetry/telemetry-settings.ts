import type Database from 'better-sqlite3';
import { OTLP_PROTOCOLS, OtlpEndpointString, type OtlpProtocol } from '@contract';
import type { SecretBox } from '../secrets/secret-box';
import type { ExportTarget } from './otel-export';

/** The stored telemetry setting (one row of `settings`, key `telemetry`); header values sealed. */
export interface StoredTelemetry {
  enabled: boolean;
  endpoint: string;
  protocol: OtlpProtocol;
  /** base64 of each sealed value. */
  headers: { name: string; sealed: string }[];
  propagate: boolean;
  exportContent: boolean;
}

export const TELEMETRY_OFF: StoredTelemetry = {
  enabled: false,
  endpoint: '',
  protocol: 'http/protobuf',
  headers: [],
  propagate: true,
  exportContent: false,
};

const KEY = 'telemetry';

export class TelemetrySettings {
  constructor(
    private readonly db: Database.Database,
    private readonly secrets: SecretBox,
  ) {}

  read(): StoredTelemetry {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    try {
      const stored = row ? (JSON.parse(row.value) as Partial<StoredTelemetry>) : {};
      return { ...TELEMETRY_OFF, ...stored };
    } catch {
      return TELEMETRY_OFF;
    }
  }

  write(value: StoredTelemetry, now: Date): void {
    this.db
      .prepare(
        'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      )
      .run(KEY, JSON.stringify(value), now.toISOString());
  }

  async seal(value: string): Promise<string> {
    return (await this.secrets.seal(value)).toString('base64');
  }

  /** Where the stored setting exports to, header values opened. */
  async target(stored: StoredTelemetry): Promise<ExportTarget> {
    const headers: Record<string, string> = {};
    for (const header of stored.headers) headers[header.name] = await this.secrets.open(Buffer.from(header.sealed, 'base64'));
    return { endpoint: stored.endpoint, protocol: stored.protocol, headers };
  }
}

/**
 * What the standard `OTEL_EXPORTER_OTLP_*` variables say (endpoint, headers, protocol), as every
 * OpenTelemetry SDK reads them; undefined when no endpoint is set or it is not http(s).
 */
export function environmentTarget(env: NodeJS.ProcessEnv): ExportTarget | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || !OtlpEndpointString.safeParse(endpoint).success) return undefined;
  if (env.OTEL_SDK_DISABLED === 'true') return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return {
    endpoint: endpoint.trim(),
    protocol: (OTLP_PROTOCOLS as readonly string[]).includes(protocol) ? (protocol as OtlpProtocol) : 'http/protobuf',
    headers,
  };
}
