/**
 * The telemetry area: one observer of the host. It listens to the event bus (the chat's messages,
 * the tool-call stream, the question queue) and, through its connection plugin, to the wire; from
 * that it keeps each turn's timeline and — only once the user (or `OTEL_EXPORTER_OTLP_*`) turns
 * export on — the OpenTelemetry spans and metric of the same work. Other areas make no tracing calls.
 */
import type Database from 'better-sqlite3';
import type { HandlersFor, TelemetryInput, TelemetryView, telemetryMethods } from '@contract';
import { millisOf, type Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { SecretBox } from '../secrets/secret-box';
import { OtelExport, spanExporterFor, type ExportTarget } from './otel-export';
import type { ServerFacts } from './otel-spans';
import { describeExportError } from './span-queue';
import { environmentTarget, TelemetrySettings, type StoredTelemetry } from './telemetry-settings';
import { tracePlugin } from './trace-plugin';
import { TurnRecorder } from './turn-recorder';

export interface TelemetryAreaOptions {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  secrets: SecretBox;
  env: NodeJS.ProcessEnv;
  version: string;
}

export function createTelemetryArea(options: TelemetryAreaOptions) {
  const settings = new TelemetrySettings(options.db, options.secrets);
  const fromEnv = environmentTarget(options.env);
  let stored = settings.read();
  let otel: OtelExport | undefined;
  let lastError: string | undefined;
  let dropped = 0;
  let exported = 0;
  const facts = new Map<string, ServerFacts>();
  const recorder = new TurnRecorder({
    now: millisOf(options.clock),
    otel: () => otel,
    facts: (id) => facts.get(id),
    exportContent: () => stored.exportContent,
  });

  const view = (): TelemetryView => ({
    enabled: stored.enabled || fromEnv !== undefined,
    endpoint: fromEnv?.endpoint ?? stored.endpoint,
    protocol: fromEnv?.protocol ?? stored.protocol,
    headers: fromEnv
      ? Object.keys(fromEnv.headers).map((name) => ({ name, hasValue: true }))
      : stored.headers.map((h) => ({ name: h.name, hasValue: true })),
    propagate: stored.propagate,
    exportContent: stored.exportContent,
    fromEnvironment: fromEnv !== undefined,
    exporting: otel !== undefined,
    dropped: dropped + (otel?.queue.dropped ?? 0),
    exported: exported + (otel?.queue.exported ?? 0),
    ...((otel?.queue.lastError ?? lastError) ? { lastError: otel?.queue.lastError ?? lastError } : {}),
  });
  const announce = () => options.events.emit('telemetryChanged', view());

  /** Replaces the pipeline with one for `target` (or none): open bars end with the old one. */
  const reconfigure = async (target: ExportTarget | undefined) => {
    const old = otel;
    if (old) recorder.endAll();
    otel = target ? new OtelExport(target, options.version, announce) : undefined;
    if (old) {
      // Counted once its last batch is out (or failed): shutting down flushes what was still queued.
      await old.shutdown();
      dropped += old.queue.dropped;
      exported += old.queue.exported;
      lastError = old.queue.lastError;
    }
    announce();
  };

  const storedTarget = async (s: StoredTelemetry) => (s.enabled && s.endpoint ? settings.target(s) : undefined);

  /** The stored value a form's input makes: new header values sealed, kept ones kept. */
  const toStored = async (input: TelemetryInput): Promise<StoredTelemetry> => {
    const headers: StoredTelemetry['headers'] = [];
    for (const header of input.headers) {
      const kept = stored.headers.find((h) => h.name === header.name);
      if (header.value !== undefined) headers.push({ name: header.name, sealed: await settings.seal(header.value) });
      else if (kept) headers.push(kept);
    }
    return {
      enabled: input.enabled,
      endpoint: input.endpoint,
      protocol: input.protocol ?? 'http/protobuf',
      headers,
      propagate: input.propagate,
      exportContent: input.exportContent,
    };
  };

  const handlers: HandlersFor<typeof telemetryMethods> = {
    getTelemetry: async () => view(),
    setTelemetry: async (input) => {
      stored = await toStored(input);
      settings.write(stored, options.clock.now());
      if (!fromEnv) await reconfigure(await storedTarget(stored));
      else announce();
      return view();
    },
    testTelemetry: async (input) => {
      const target = fromEnv ?? (await settings.target(await toStored({ ...input, enabled: true })));
      if (!target.endpoint) return { ok: false, message: 'Enter the OTLP endpoint first.' };
      const exporter = spanExporterFor(target, 5_000);
      const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export([], resolve));
      await exporter.shutdown().catch(() => undefined);
      return result.code === 0
        ? { ok: true, message: `${target.endpoint} accepted an export.` }
        : { ok: false, message: `${target.endpoint}: ${describeExportError(result.error)}` };
    },
    getTurnTimeline: async (target) => recorder.timeline(target),
  };

  let unsubscribe: (() => void) | undefined;
  return {
    name: 'telemetry',
    handlers,
    plugin: tracePlugin({ recorder, facts, propagating: () => otel !== undefined && stored.propagate }),
    start() {
      unsubscribe = options.events.subscribe((event) => recorder.onEvent(event));
      // Nothing is exported before the user (or the environment) turns it on.
      void (fromEnv ? Promise.resolve(fromEnv) : storedTarget(stored))
        .then((target) => (target ? reconfigure(target) : undefined))
        .catch((error: unknown) => {
          lastError = `Telemetry export is off: ${(error as Error).message}`;
        });
    },
    async dispose() {
      unsubscribe?.();
      recorder.endAll();
      await otel?.shutdown();
      otel = undefined;
    },
  };
}
