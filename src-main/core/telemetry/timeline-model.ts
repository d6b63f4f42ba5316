/**
 * The timeline's records (a turn, its bars) and the small pure steps the recorder takes on them.
 */
import type { ChatMessage, RunningToolCall, TimelineSpan } from '@contract';
import type { ExportSpan } from './export-span';
import { parseTraceparent } from './trace-context';

/** What a call outside a chat is, by who asked for it. */
export const LONE_CALL_LABELS: Record<RunningToolCall['origin'], string> = {
  user: 'Run from the Tools tab',
  model: 'Model call',
  app: 'Call from an app',
};

/** Turns (and lone calls) kept for the timeline, newest last. */
export const KEPT_TURNS = 100;

export interface Bar {
  view: TimelineSpan;
  start: number;
  turn: Turn;
  otel?: ExportSpan;
  jsonrpcKey?: string;
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

/** A tool search's bar ends with what the host's answer found (or that it failed). */
export function searchOutcome(view: TimelineSpan, results: ChatMessage): void {
  const result = results.content.find((b) => b.type === 'tool_result' && b.toolUseId === view.toolUseId);
  if (result?.type !== 'tool_result') return;
  view.status = result.isError ? 'error' : 'ok';
  const found = result.toolSearch?.found.length ?? 0;
  if (!result.isError) view.label += `: ${found} tool${found === 1 ? '' : 's'} found`;
}

export function traceSpanId(params: Record<string, unknown> | undefined): string | undefined {
  return parseTraceparent((params?._meta as { traceparent?: unknown } | undefined)?.traceparent)?.spanId;
}

/** Opt-in content attributes are capped, so one huge result cannot fill the queue's memory. */
export function capped(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  return json.length > 8_192 ? `${json.slice(0, 8_192)}…` : json;
}
