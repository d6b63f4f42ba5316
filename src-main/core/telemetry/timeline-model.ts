/**
 * The timeline's records (a turn, its bars) and the small pure steps the recorder takes on them.
 */
import type { ChatError, ChatMessage, RunningToolCall, TimelineKind, TimelineSpan, TurnTimeline } from '@contract';
import type { ExportSpan } from './export-span';
import type { OtelExport } from './otel-export';
import type { ServerFacts } from './otel-spans';

/** What a call outside a chat is, by who asked for it. */
export const LONE_CALL_LABELS: Record<RunningToolCall['origin'], string> = {
  user: 'Run from the Tools tab',
  model: 'Model call',
  app: 'Call from an app',
};

/** Turns (and lone calls) kept for the timeline, newest last. */
export const KEPT_TURNS = 100;

/**
 * A bar's view as the recorder fills it in: every field of a `TimelineSpan` in place from the start,
 * so each bar is one object of one shape (fields added one by one grew a property store per bar, on
 * every call); `timelineOf` copies out the fields that are set. `id` and `startMs` come with `startBar`.
 */
export class BarView implements TimelineSpan {
  id = '';
  parentId?: string = undefined;
  startMs = 0;
  durationMs?: number = undefined;
  serverName?: string = undefined;
  tool?: string = undefined;
  callId?: string = undefined;
  toolUseId?: string = undefined;
  serverId?: string = undefined;
  requestId?: string = undefined;
  requestInitiator?: string = undefined;
  model?: string = undefined;
  inputTokens?: number = undefined;
  outputTokens?: number = undefined;
  firstTokenMs?: number = undefined;
  bytesOut?: number = undefined;
  bytesIn?: number = undefined;
  status?: string = undefined;

  constructor(
    public kind: TimelineKind,
    public label: string,
  ) {}
}

export interface Bar {
  view: BarView;
  start: number;
  turn: Turn;
  otel?: ExportSpan;
  /** The JSON-RPC id of its `tools/call` once the request left (the key of its server's `byRequest`). */
  jsonrpcId?: string | number;
  serverId?: string;
}

export interface Turn {
  conversationId: string;
  start: number;
  bars: Bar[];
  root: Bar;
  /** When the last step ended: the next model request starts here. */
  mark: number;
  messageIds: number[];
  open: boolean;
  /** A call outside a chat (the Tools tab, an app): its call is its trace's root span (no turn span to export). */
  lone: boolean;
  /** Tool searches of the last answer not yet answered, in the answer's order of calls (`order`). */
  searches: Bar[];
  order: string[];
}

/**
 * The kept turns, newest last: a ring of `KEPT_TURNS` slots, so keeping one more replaces the oldest
 * in place and a call costs the same however many turns are kept.
 */
export class TurnRing {
  private readonly slots = new Array<Turn | undefined>(KEPT_TURNS);
  private next = 0;

  /** Keeps `turn`; gives back the oldest turn, which it replaced, once the ring is full. */
  keep(turn: Turn): Turn | undefined {
    const oldest = this.slots[this.next];
    this.slots[this.next] = turn;
    this.next = (this.next + 1) % KEPT_TURNS;
    return oldest;
  }
}

/** When a turn's bar ends: with its last bar (one still running: now). */
export function turnEnd(turn: Turn, now: number): number {
  let end = now;
  for (const bar of turn.bars) end = Math.max(end, bar.start + (bar.view.durationMs ?? 0));
  return end;
}

/** A turn just opened (`root`, its own bar, is set next by the recorder; its slot is there from the start). */
export function newTurn(conversationId: string, now: number): Turn {
  const turn = {
    conversationId,
    start: now,
    bars: [],
    root: undefined,
    mark: now,
    messageIds: [],
    open: true,
    lone: !conversationId,
    searches: [],
    order: [],
  };
  return turn as Omit<Turn, 'root'> as Turn;
}

/** A request as it left for a server; `initiator`: who asked for it when the Protocol log names one (an app). */
export interface SentRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown> | undefined;
  bytes: number;
  initiator?: string;
}

/** What the recorder reads from its area. */
export interface RecorderDeps {
  now(): number;
  /** The export pipeline while export is on. */
  otel(): OtelExport | undefined;
  facts(serverId: string): ServerFacts | undefined;
  /** Whether arguments and results may be exported (the user's opt-in). */
  exportContent(): boolean;
}

/** What the renderer gets of a turn: copies of its bars, and its trace id when it was exported. */
export function timelineOf(turn: Turn): TurnTimeline {
  const traceId = turn.bars.find((bar) => bar.otel)?.otel?.spanContext().traceId;
  return {
    conversationId: turn.conversationId,
    ...(traceId ? { traceId } : {}),
    startedAt: new Date(turn.start).toISOString(),
    spans: turn.bars.map((bar) => fieldsSet(bar.view)),
  };
}

/** A copy of the view without its unset fields (what the renderer and the tests see). */
function fieldsSet(view: BarView): TimelineSpan {
  const span: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) if (value !== undefined) span[key] = value;
  return span as unknown as TimelineSpan;
}

/** A failed model request's label: how the turn failed, in its own words (cut short). */
export function failureLabel(failure: ChatError): string {
  const message = failure.message.length > 80 ? `${failure.message.slice(0, 79)}…` : failure.message;
  return `Failed (${failure.kind}): ${message}`;
}

/** A tool search's bar ends with what the host's answer found (or that it failed). */
export function searchOutcome(view: TimelineSpan, results: ChatMessage): void {
  const result = results.content.find((b) => b.type === 'tool_result' && b.toolUseId === view.toolUseId);
  if (result?.type !== 'tool_result') return;
  view.status = result.isError ? 'error' : 'ok';
  const found = result.toolSearch?.found.length ?? 0;
  if (!result.isError) view.label += `: ${found} tool${found === 1 ? '' : 's'} found`;
}

/**
 * The span id in the trace context of a request leaving for a server (written by the trace plugin),
 * to find its span. Not a parse: the id only looks up the recorder's own spans, so a value that is not
 * ours finds nothing (what arrives from a server is never read this way).
 */
export function traceSpanId(params: Record<string, unknown> | undefined): string | undefined {
  const value = (params?._meta as { traceparent?: unknown } | undefined)?.traceparent;
  return typeof value === 'string' && value.length === 55 ? value.slice(36, 52) : undefined;
}

/** Opt-in content attributes are capped, so one huge result cannot fill the queue's memory. */
export function capped(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  return json.length > 8_192 ? `${json.slice(0, 8_192)}…` : json;
}
