import { z } from 'zod';
import { IdString, method, NoInput } from './method';

/**
 * Telemetry: the turn timeline (always recorded, kept in memory) and OpenTelemetry export (off until
 * the user turns it on). Header values are secrets: they go in, sealed, and never come back out.
 */

export const OTLP_PROTOCOLS = ['http/json', 'http/protobuf'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** An OTLP endpoint: http(s) only (refused at entry otherwise). */
export const OtlpEndpointString = z
  .string()
  .trim()
  .max(2_000)
  .pipe(z.url({ protocol: /^https?$/, message: 'Enter an http:// or https:// address' }));

const HeaderName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'A header name has letters, digits and - only');

export const SetTelemetrySchema = z
  .object({
    enabled: z.boolean(),
    endpoint: z.union([OtlpEndpointString, z.literal('')]),
    protocol: z.enum(OTLP_PROTOCOLS),
    /** `value` absent: keep the stored value of that header. */
    headers: z.array(z.object({ name: HeaderName, value: z.string().max(8_000).optional() }).strict()).max(50),
    /** Send W3C trace context in `params._meta` of requests to servers (SEP-414). */
    propagate: z.boolean(),
    /** Export tool arguments and results (the conventions' opt-in attributes). */
    exportContent: z.boolean(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.enabled && input.endpoint === '') ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'Enter the OTLP endpoint' });
  });
export type TelemetryInput = z.input<typeof SetTelemetrySchema>;

/** The telemetry settings as the renderer sees them (header values never leave the host). */
export interface TelemetryView {
  enabled: boolean;
  endpoint: string;
  protocol: OtlpProtocol;
  headers: { name: string; hasValue: boolean }[];
  propagate: boolean;
  exportContent: boolean;
  /** Set when `OTEL_EXPORTER_OTLP_*` variables configure export (they win over the stored setting). */
  fromEnvironment: boolean;
  /** Whether spans are being exported right now. */
  exporting: boolean;
  /** Spans dropped since start (the bounded queue was full, or the endpoint failed). */
  dropped: number;
  /** Spans the endpoint accepted since start. */
  exported: number;
  /** The last export failure, in words. */
  lastError?: string;
}

export interface TelemetryTestResult {
  ok: boolean;
  message: string;
}

/** What a bar of the timeline is. */
export type TimelineKind = 'turn' | 'model' | 'search' | 'tool' | 'consent' | 'sampling' | 'elicitation' | 'request';

/** One bar of a turn's waterfall; times in ms from the turn's start. */
export interface TimelineSpan {
  id: string;
  parentId?: string;
  kind: TimelineKind;
  label: string;
  startMs: number;
  /** Absent while it runs. */
  durationMs?: number;
  serverName?: string;
  tool?: string;
  callId?: string;
  /** The chat's id of the call (a tool call, its consent wait, a tool search): its card in the conversation. */
  toolUseId?: string;
  /** The server of a call or of a request it caused (the Logs page's address). */
  serverId?: string;
  /**
   * The JSON-RPC id of the bar's request on the server's wire — a tool call's, or the server's own
   * sampling or elicitation request's —: its lines in the server's Protocol log (`protocolLinesFilter`).
   */
  requestId?: string;
  /** Who asked for the request when the Protocol log names one (an app's call: "the app of …"). */
  requestInitiator?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Time to the first streamed text of a model request. */
  firstTokenMs?: number;
  bytesOut?: number;
  bytesIn?: number;
  /** How it ended (a tool call's status, a question's outcome). */
  status?: string;
}

/** The JSON-RPC method of each kind of bar that is one request on a server's wire. */
const REQUEST_METHODS: Partial<Record<TimelineKind, string>> = {
  tool: 'tools/call',
  sampling: 'sampling/createMessage',
  elicitation: 'elicitation/create',
};

/**
 * The Protocol log filter that finds a bar's request and its answer, and nothing else: their lines
 * read `→ tools/call #7 (…` and `← result of tools/call #7 (…` (a server's request: `← sampling/createMessage #3 (…`,
 * `→ result of sampling/createMessage #3 (…`); a request an app asked for names it after the id
 * (`— from the app of …`, `— for …`), so its filter ends at the dash. Undefined: no request to find.
 */
export function protocolLinesFilter(span: TimelineSpan): string | undefined {
  const method = REQUEST_METHODS[span.kind];
  if (!method || span.requestId === undefined || !span.serverId) return undefined;
  return `${method} #${span.requestId} ${span.requestInitiator ? '—' : '('}`;
}

export interface TurnTimeline {
  conversationId: string;
  /** The OpenTelemetry trace id when the turn was exported. */
  traceId?: string;
  startedAt: string;
  spans: TimelineSpan[];
}

/** A chat message (the turn that wrote it), or a call by its id (its turn; a call outside a chat — the Tools tab's, an app's — its own). */
const TimelineSchema = z.union([
  z.object({ conversationId: IdString, messageId: z.number().int().positive() }).strict(),
  z.object({ callId: IdString }).strict(),
]);
export type TimelineTarget = z.infer<typeof TimelineSchema>;

export const telemetryMethods = {
  getTelemetry: method<typeof NoInput, TelemetryView>(NoInput),
  setTelemetry: method<typeof SetTelemetrySchema, TelemetryView>(SetTelemetrySchema),
  /** Sends one empty export to the endpoint (as set, or as given) and names what failed. */
  testTelemetry: method<typeof SetTelemetrySchema, TelemetryTestResult>(SetTelemetrySchema),
  /** The timeline of the turn that wrote a message (or of a lone call), or null when it is no longer kept. */
  getTurnTimeline: method<typeof TimelineSchema, TurnTimeline | null>(TimelineSchema),
};

export interface TelemetryEvents {
  telemetryChanged: TelemetryView;
}
