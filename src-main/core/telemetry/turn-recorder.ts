import type { Attributes } from '@opentelemetry/api';
import {
  TOOL_SEARCH_TOOL_NAME,
  type ChatMessage,
  type ConversationSummary,
  type HostEvent,
  type QuestionSettled,
  type ToolEvents,
  type TurnTimeline,
  type RunningToolCall,
  type Question,
  type TimelineTarget,
} from '@contract';
import { CallRequests } from './call-requests';
import { RequestSpans } from './request-spans';
import { ServerRequestIds } from './server-request-ids';
import {
  capped,
  failureLabel,
  timelineOf,
  newTurn,
  LONE_CALL_LABELS,
  searchOutcome,
  traceSpanId,
  turnEnd,
  TurnRing,
  BarView,
  type Bar,
  type RecorderDeps,
  type SentRequest,
  type Turn,
} from './timeline-model';
import { endOtelSpan, errorType, recordDuration, startOtelSpan } from './otel-spans';

/**
 * The one observer: builds each turn's timeline from what the host already emits (the chat's
 * messages, the tool-call stream, the question queue) and what crosses the wire, and — when export
 * is on — the OpenTelemetry spans of the same bars. No other area calls into it.
 */
export class TurnRecorder {
  private readonly turns = new TurnRing();
  private readonly openTurns = new Map<string, Turn>();
  private readonly byMessage = new Map<string, Turn>();
  /** Each call's turn by call id (a call outside a chat: its own), for its record's Timeline (the audit trail, the Tools tab). */
  private readonly byCall = new Map<string, Turn>();
  private readonly models = new Map<number, Bar>();
  private readonly calls = new Map<string, { consent?: Bar; tool?: Bar }>();
  private readonly callRequests = new CallRequests();
  private readonly bySpanId = new Map<string, Bar>();
  private readonly questions = new Map<string, Bar>();
  private readonly requests = new RequestSpans();
  /** Sampling and elicitation requests seen on the wire, for their bars' Protocol log lines. */
  readonly serverRequests = new ServerRequestIds();
  private seq = 0;

  constructor(private readonly deps: RecorderDeps) {}

  onEvent(event: HostEvent): void {
    switch (event.name) {
      case 'chatMessage':
        return this.onMessage(event.payload);
      case 'conversationUpdated':
        return this.onConversation(event.payload);
      case 'toolCallWaiting':
        return this.onWaiting(event.payload);
      case 'toolCallStarted':
        return this.onStarted(event.payload);
      case 'toolCallFinished':
        return this.onFinished(event.payload);
      case 'questionAsked':
        return this.onAsked(event.payload);
      case 'questionSettled':
        return this.onSettled(event.payload);
      default:
        return;
    }
  }

  /** The bar of the next `tools/call` to this server and tool (what its request's trace context names). */
  pendingCall(serverId: string, tool: string): Bar | undefined {
    return this.callRequests.next(serverId, tool);
  }

  /**
   * The span of a request other than `tools/call` about to leave for a server (export on): under the
   * call running on that server, else its own trace. `settle` ends it when the request settles.
   */
  startRequest(serverId: string, method: string, params: Record<string, unknown> | undefined) {
    const otel = this.deps.otel();
    // Export off: no span, and no look for the running call (a walk over the running calls).
    if (!otel) return undefined;
    const now = this.deps.now();
    const span = this.requests.start(otel, method, params, this.deps.facts(serverId), this.runningCallOf(serverId)?.otel, now);
    if (!span) return undefined;
    return { span, settle: (error?: unknown) => this.requests.end(otel, span, this.deps.now(), now, error) };
  }

  /** A request left for a server: binds a `tools/call` to its bar (by its trace context, else in order). */
  onRequestSent(serverId: string, { id, method, params, bytes, initiator }: SentRequest): void {
    // The trace context is looked at only while there are spans it could name (export on).
    if (method !== 'tools/call') {
      if (this.requests.waiting) this.requests.sent(traceSpanId(params), id);
      return;
    }
    const spanId = this.bySpanId.size > 0 ? traceSpanId(params) : undefined;
    const bar = this.callRequests.bind(serverId, id, params?.name, spanId ? this.bySpanId.get(spanId) : undefined);
    if (!bar) return;
    bar.view.bytesOut = bytes;
    bar.view.requestId = String(id);
    if (initiator) bar.view.requestInitiator = initiator;
    bar.otel?.setAttribute('jsonrpc.request.id', String(id));
  }

  /** A response arrived: its size, and `isError` for the call's `error.type`. */
  onResponse(serverId: string, id: string | number, bytes: number, result: unknown): void {
    const bar = this.callRequests.answered(serverId, id);
    if (!bar) return;
    bar.view.bytesIn = bytes;
    if (bar.otel && this.deps.exportContent() && result !== undefined) bar.otel.setAttribute('mcp.tool.result', capped(result));
    if ((result as { isError?: unknown } | undefined)?.isError === true) bar.view.status = 'tool_error';
  }

  /** The turn that wrote (or asked) this message, as a waterfall; null once it is no longer kept. */
  timeline(target: TimelineTarget): TurnTimeline | null {
    const turn = 'callId' in target ? this.byCall.get(target.callId) : this.byMessage.get(`${target.conversationId}\n${target.messageId}`);
    return turn ? timelineOf(turn) : null;
  }

  /** Ends every open bar (export turned off, the host closing). */
  endAll(): void {
    for (const turn of [...this.openTurns.values()]) this.endTurn(turn);
  }

  private onMessage(message: ChatMessage): void {
    const now = this.deps.now();
    const conv = message.conversationId;
    if (message.role === 'user') {
      const results = message.content.length > 0 && message.content.every((b) => b.type === 'tool_result');
      const open = this.openTurns.get(conv);
      if (results && open) {
        this.endSearches(open, now, undefined, message);
        open.mark = now;
      } else {
        if (open) this.endTurn(open);
        this.openTurn(conv, now);
      }
      this.remember(this.openTurns.get(conv)!, message.id);
      return;
    }
    if (message.role !== 'assistant') return;
    const turn = this.openTurns.get(conv) ?? this.openTurn(conv, now);
    this.remember(turn, message.id);
    let bar = this.models.get(message.id);
    if (!bar) {
      const view = new BarView('model', message.model ?? 'model');
      view.model = message.model;
      bar = this.startBar(turn, view, turn.mark, turn.root);
      bar.view.firstTokenMs = now - turn.mark;
      this.models.set(message.id, bar);
    }
    if (message.status === 'streaming') return;
    this.models.delete(message.id);
    if (message.usage) {
      bar.view.inputTokens = message.usage.inputTokens;
      bar.view.outputTokens = message.usage.outputTokens;
    }
    if (message.model) bar.view.model = message.model;
    this.startSearches(turn, message, now);
    bar.view.status = message.status === 'interrupted' ? 'interrupted' : (message.stopReason ?? 'complete');
    this.endBar(bar, now, message.stopReason ? { 'gen_ai.response.finish_reasons': [message.stopReason] } : {});
    turn.mark = now;
    if (message.status === 'interrupted' || message.stopReason !== 'tool_use') this.endTurn(turn);
  }

  /**
   * The chat's turn is over (its conversation went idle): a turn that failed ends with its failed
   * model request in place (the request that was streaming, else one from the last step), so a
   * failure and the Retry after it (a turn of its own) both show.
   */
  private onConversation(summary: ConversationSummary): void {
    const turn = summary.turn === 'idle' ? this.openTurns.get(summary.id) : undefined;
    if (!turn) return;
    const failure = summary.lastError;
    if (failure) {
      const now = this.deps.now();
      const streaming = [...this.models].find(([, bar]) => bar.turn === turn);
      if (streaming) this.models.delete(streaming[0]);
      const bar = streaming?.[1] ?? this.startBar(turn, new BarView('model', failureLabel(failure)), turn.mark, turn.root);
      bar.view.status = 'error';
      this.endBar(bar, now, { 'error.type': failure.kind });
    }
    this.endTurn(turn);
  }

  /** Each tool search the answer asked for: a bar from the answer's end until the host answered it. */
  private startSearches(turn: Turn, message: ChatMessage, now: number): void {
    turn.order = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      turn.order.push(block.id);
      if (block.name !== TOOL_SEARCH_TOOL_NAME || block.serverId) continue;
      const query = typeof block.input.query === 'string' ? block.input.query : '';
      const view = new BarView('search', `Tool search “${query}”`);
      view.toolUseId = block.id;
      turn.searches.push(this.startBar(turn, view, now, turn.root));
    }
  }

  /**
   * Searches are answered in the answer's order, between its calls: a call starting (or waiting)
   * ends the searches before it; the results message ends the rest, with what each found.
   */
  private endSearches(turn: Turn, now: number, beforeToolUseId?: string, results?: ChatMessage): void {
    if (turn.searches.length === 0) return;
    const limit = beforeToolUseId ? turn.order.indexOf(beforeToolUseId) : Infinity;
    turn.searches = turn.searches.filter((bar) => {
      if (turn.order.indexOf(bar.view.toolUseId!) > limit) return true;
      if (results) searchOutcome(bar.view, results);
      this.endBar(bar, now);
      return false;
    });
  }

  private onWaiting(key: ToolEvents['toolCallWaiting']): void {
    const now = this.deps.now();
    const turn = this.turnOf(key.chat?.conversationId, now);
    if (key.chat) this.endSearches(turn, now, key.chat.toolUseId);
    const entry = this.calls.get(key.callId) ?? {};
    this.byCall.set(key.callId, turn);
    const view = new BarView('consent', 'Waiting for your answer');
    view.callId = key.callId;
    if (key.chat) view.toolUseId = key.chat.toolUseId;
    entry.consent = this.startBar(turn, view, now, turn.root);
    this.calls.set(key.callId, entry);
  }

  private onStarted(call: RunningToolCall): void {
    const now = this.deps.now();
    const entry = this.calls.get(call.callId) ?? {};
    const turn = entry.consent?.turn ?? this.turnOf(call.chat?.conversationId, now, LONE_CALL_LABELS[call.origin]);
    this.byCall.set(call.callId, turn);
    if (call.chat) this.endSearches(turn, now, call.chat.toolUseId);
    // A call outside a chat that waited for consent opened its turn before who asked was known.
    else turn.root.view.label = LONE_CALL_LABELS[call.origin];
    if (entry.consent) {
      entry.consent.view.status = 'allowed';
      this.endBar(entry.consent, now);
    }
    const view = new BarView('tool', `${call.serverName} › ${call.tool}`);
    view.serverName = call.serverName;
    view.tool = call.tool;
    view.callId = call.callId;
    view.serverId = call.serverId;
    if (call.chat) view.toolUseId = call.chat.toolUseId;
    const tool = this.startBar(turn, view, now, turn.root, call.serverId);
    entry.tool = tool;
    this.calls.set(call.callId, entry);
    this.callRequests.started(call.serverId, tool);
  }

  private onFinished(done: ToolEvents['toolCallFinished']): void {
    const now = this.deps.now();
    const entry = this.calls.get(done.callId);
    if (!entry) return;
    this.calls.delete(done.callId);
    if (entry.consent && entry.consent.view.durationMs === undefined) {
      entry.consent.view.status = done.status;
      this.endBar(entry.consent, now);
    }
    const bar = entry.tool ?? entry.consent;
    if (!bar) return;
    if (entry.tool) {
      this.callRequests.finished(done.serverId, entry.tool);
      if (entry.tool.view.status !== 'tool_error' || done.status !== 'ok') entry.tool.view.status = done.status;
      this.endBar(entry.tool, now);
      const otel = this.deps.otel();
      if (otel) {
        const seconds = (now - entry.tool.start) / 1000;
        recordDuration(otel, seconds, 'tools/call', this.deps.facts(done.serverId), done.tool, errorType(entry.tool.view));
      }
    }
    bar.turn.mark = now;
    if (!done.chat) this.endTurn(bar.turn, now);
  }

  private onAsked(question: Question): void {
    if (question.kind !== 'sampling' && question.kind !== 'elicitation') return;
    const now = this.deps.now();
    const parent = this.runningCallOf(question.serverId);
    const turn = parent?.turn ?? this.turnOf(undefined, now, `${question.kind} request`);
    const label = question.kind === 'sampling' ? 'Sampling request' : 'Elicitation request';
    const requestId = this.serverRequests.claim(question.serverId, question.kind);
    const view = new BarView(question.kind, label);
    view.serverId = question.serverId;
    if (requestId) view.requestId = requestId;
    this.questions.set(question.id, this.startBar(turn, view, now, parent ?? turn.root, question.serverId));
  }

  private onSettled(settled: QuestionSettled): void {
    const bar = this.questions.get(settled.id);
    if (!bar) return;
    this.questions.delete(settled.id);
    bar.view.status = String(settled.outcome);
    this.endBar(bar, this.deps.now());
    if (bar.turn.root === bar) this.endTurn(bar.turn);
  }

  private runningCallOf(serverId: string): Bar | undefined {
    for (const entry of [...this.calls.values()].reverse()) {
      if (entry.tool?.serverId === serverId && entry.tool.view.durationMs === undefined) return entry.tool;
    }
    return undefined;
  }

  /** The chat's open turn, or a turn of its own for a call outside a chat. */
  private turnOf(conversationId: string | undefined, now: number, label = 'Turn'): Turn {
    if (conversationId) return this.openTurns.get(conversationId) ?? this.openTurn(conversationId, now);
    return this.openTurn('', now, label);
  }

  private openTurn(conversationId: string, now: number, label = 'Turn'): Turn {
    const turn = newTurn(conversationId, now);
    turn.root = this.startBar(turn, new BarView('turn', label), now, undefined);
    if (conversationId) {
      this.openTurns.set(conversationId, turn);
      turn.root.otel?.setAttribute('gen_ai.conversation.id', conversationId);
    }
    const oldest = this.turns.keep(turn);
    if (oldest) this.forget(oldest);
    return turn;
  }

  /** `now`: when its last step ended, if the caller just read the clock. */
  private endTurn(turn: Turn, now = this.deps.now()): void {
    if (!turn.open) return;
    turn.open = false;
    if (this.openTurns.get(turn.conversationId) === turn) this.openTurns.delete(turn.conversationId);
    this.endSearches(turn, now);
    for (const [id, bar] of this.models) {
      if (bar.turn !== turn) continue;
      // An answer that never finished (the turn failed or was stopped mid-stream) ends with its turn.
      this.models.delete(id);
      this.endBar(bar, now);
    }
    this.endBar(turn.root, turnEnd(turn, now));
  }

  /** A turn leaves the ring: what finds it (its calls, messages and spans) goes with it. */
  private forget(turn: Turn): void {
    for (const bar of turn.bars) {
      if (bar.view.callId) this.byCall.delete(bar.view.callId);
      if (bar.otel) this.bySpanId.delete(bar.otel.spanContext().spanId);
    }
    for (const id of turn.messageIds) this.byMessage.delete(`${turn.conversationId}\n${id}`);
  }

  private remember(turn: Turn, messageId: number): void {
    turn.messageIds.push(messageId);
    this.byMessage.set(`${turn.conversationId}\n${messageId}`, turn);
  }

  /** A bar of `turn`, with the view its maker filled in (`id`, `startMs` and `parentId` added here). */
  private startBar(turn: Turn, view: BarView, start: number, parent: Bar | undefined, serverId?: string): Bar {
    view.id = `s${++this.seq}`;
    view.startMs = start - turn.start;
    if (parent) view.parentId = parent.view.id;
    // Every field in place from the start: one shape for every bar.
    const bar: Bar = { view, start, turn, serverId, otel: undefined, jsonrpcId: undefined };
    const otel = this.deps.otel();
    if (otel) {
      // A bar whose parent was not exported (export turned on mid-turn) is not either; a lone call
      // (no chat) is its call span, its trace's root: one span per call, not a turn span around it.
      const otelParent = parent ? parent.otel : undefined;
      const exported = turn.lone ? view.kind === 'tool' || otelParent !== undefined : !parent || otelParent !== undefined;
      if (exported) {
        bar.otel = startOtelSpan(otel, view, start, otelParent, serverId ? this.deps.facts(serverId) : undefined);
        this.bySpanId.set(bar.otel.spanContext().spanId, bar);
      }
    }
    turn.bars.push(bar);
    return bar;
  }

  private endBar(bar: Bar, end: number, extra?: Attributes): void {
    if (bar.view.durationMs !== undefined) return;
    bar.view.durationMs = Math.max(0, end - bar.start);
    if (bar.otel) {
      endOtelSpan(bar.otel, bar.view, end, extra);
      this.bySpanId.delete(bar.otel.spanContext().spanId);
    }
  }
}
