import type { Attributes } from '@opentelemetry/api';
import {
  TOOL_SEARCH_TOOL_NAME,
  type ChatMessage,
  type ConversationSummary,
  type HostEvent,
  type QuestionSettled,
  type TimelineSpan,
  type ToolEvents,
  type TurnTimeline,
  type RunningToolCall,
  type Question,
  type TimelineTarget,
} from '@contract';
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
  KEPT_TURNS,
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
  private readonly turns: Turn[] = [];
  private readonly openTurns = new Map<string, Turn>();
  private readonly byMessage = new Map<string, Turn>();
  /** Each call's turn by call id (a call outside a chat: its own), for its record's Timeline (the audit trail, the Tools tab). */
  private readonly byCall = new Map<string, Turn>();
  private readonly models = new Map<number, Bar>();
  private readonly calls = new Map<string, { consent?: Bar; tool?: Bar }>();
  /** Tool bars started and not yet matched to their `tools/call` request, per server (FIFO). */
  private readonly unsent = new Map<string, Bar[]>();
  private readonly byRequest = new Map<string, Bar>();
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
    return this.unsent.get(serverId)?.find((bar) => bar.view.tool === tool && !bar.jsonrpcKey);
  }

  /**
   * The span of a request other than `tools/call` about to leave for a server (export on): under the
   * call running on that server, else its own trace. `settle` ends it when the request settles.
   */
  startRequest(serverId: string, method: string, params: Record<string, unknown> | undefined) {
    const now = this.deps.now();
    const otel = this.deps.otel();
    const span = this.requests.start(otel, method, params, this.deps.facts(serverId), this.runningCallOf(serverId)?.otel, now);
    if (!span) return undefined;
    return { span, settle: (error?: unknown) => this.requests.end(otel, span, this.deps.now(), now, error) };
  }

  /** A request left for a server: binds a `tools/call` to its bar (by its trace context, else in order). */
  onRequestSent(serverId: string, { id, method, params, bytes, initiator }: SentRequest): void {
    if (method !== 'tools/call') return this.requests.sent(traceSpanId(params), id);
    const queue = this.unsent.get(serverId);
    if (!queue) return;
    const spanId = traceSpanId(params);
    const bar = (spanId && this.bySpanId.get(spanId)) || queue.find((b) => b.view.tool === params?.name && !b.jsonrpcKey);
    if (!bar) return;
    queue.splice(queue.indexOf(bar), 1);
    bar.jsonrpcKey = `${serverId}\n${id}`;
    bar.view.bytesOut = bytes;
    bar.view.requestId = String(id);
    if (initiator) bar.view.requestInitiator = initiator;
    bar.otel?.setAttribute('jsonrpc.request.id', String(id));
    this.byRequest.set(bar.jsonrpcKey, bar);
  }

  /** A response arrived: its size, and `isError` for the call's `error.type`. */
  onResponse(serverId: string, id: string | number, bytes: number, result: unknown): void {
    const key = `${serverId}\n${id}`;
    const bar = this.byRequest.get(key);
    if (!bar) return;
    this.byRequest.delete(key);
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
      bar = this.startBar(turn, { kind: 'model', label: message.model ?? 'model', model: message.model }, turn.mark, turn.root);
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
      const bar = streaming?.[1] ?? this.startBar(turn, { kind: 'model', label: failureLabel(failure) }, turn.mark, turn.root);
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
      turn.searches.push(this.startBar(turn, { kind: 'search', label: `Tool search “${query}”`, toolUseId: block.id }, now, turn.root));
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
    const turn = this.turnOf(key.chat?.conversationId);
    const now = this.deps.now();
    if (key.chat) this.endSearches(turn, now, key.chat.toolUseId);
    const entry = this.calls.get(key.callId) ?? {};
    const chat = key.chat ? { toolUseId: key.chat.toolUseId } : {};
    this.byCall.set(key.callId, turn);
    entry.consent = this.startBar(turn, { kind: 'consent', label: 'Waiting for your answer', callId: key.callId, ...chat }, now, turn.root);
    this.calls.set(key.callId, entry);
  }

  private onStarted(call: RunningToolCall): void {
    const now = this.deps.now();
    const entry = this.calls.get(call.callId) ?? {};
    const turn = entry.consent?.turn ?? this.turnOf(call.chat?.conversationId, LONE_CALL_LABELS[call.origin]);
    this.byCall.set(call.callId, turn);
    if (call.chat) this.endSearches(turn, now, call.chat.toolUseId);
    // A call outside a chat that waited for consent opened its turn before who asked was known.
    else turn.root.view.label = LONE_CALL_LABELS[call.origin];
    if (entry.consent) {
      entry.consent.view.status = 'allowed';
      this.endBar(entry.consent, now);
    }
    const view = {
      kind: 'tool',
      label: `${call.serverName} › ${call.tool}`,
      serverName: call.serverName,
      tool: call.tool,
      callId: call.callId,
      serverId: call.serverId,
      ...(call.chat ? { toolUseId: call.chat.toolUseId } : {}),
    } as const;
    const tool = this.startBar(turn, view, now, turn.root, call.serverId);
    entry.tool = tool;
    this.calls.set(call.callId, entry);
    const queue = this.unsent.get(call.serverId) ?? [];
    queue.push(tool);
    this.unsent.set(call.serverId, queue);
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
      const queue = this.unsent.get(done.serverId);
      if (queue?.includes(entry.tool)) queue.splice(queue.indexOf(entry.tool), 1);
      // A call cancelled or failed before its response: its request id is forgotten with it.
      if (entry.tool.jsonrpcKey) this.byRequest.delete(entry.tool.jsonrpcKey);
      if (entry.tool.view.status !== 'tool_error' || done.status !== 'ok') entry.tool.view.status = done.status;
      this.endBar(entry.tool, now);
      const seconds = (now - entry.tool.start) / 1000;
      recordDuration(this.deps.otel(), seconds, 'tools/call', this.deps.facts(done.serverId), done.tool, errorType(entry.tool.view));
    }
    bar.turn.mark = now;
    if (!done.chat) this.endTurn(bar.turn);
  }

  private onAsked(question: Question): void {
    if (question.kind !== 'sampling' && question.kind !== 'elicitation') return;
    const parent = this.runningCallOf(question.serverId);
    const turn = parent?.turn ?? this.turnOf(undefined, `${question.kind} request`);
    const label = question.kind === 'sampling' ? 'Sampling request' : 'Elicitation request';
    const requestId = this.serverRequests.claim(question.serverId, question.kind);
    const view = { kind: question.kind, label, serverId: question.serverId, ...(requestId ? { requestId } : {}) };
    this.questions.set(question.id, this.startBar(turn, view, this.deps.now(), parent ?? turn.root, question.serverId));
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
  private turnOf(conversationId: string | undefined, label = 'Turn'): Turn {
    if (conversationId) return this.openTurns.get(conversationId) ?? this.openTurn(conversationId, this.deps.now());
    return this.openTurn('', this.deps.now(), label);
  }

  private openTurn(conversationId: string, now: number, label = 'Turn'): Turn {
    const turn = newTurn(conversationId, now);
    turn.root = this.startBar(turn, { kind: 'turn', label }, now, undefined);
    if (conversationId) {
      this.openTurns.set(conversationId, turn);
      turn.root.otel?.setAttribute('gen_ai.conversation.id', conversationId);
    }
    this.turns.push(turn);
    if (this.turns.length > KEPT_TURNS) this.forget(this.turns.shift()!);
    return turn;
  }

  private endTurn(turn: Turn): void {
    if (!turn.open) return;
    turn.open = false;
    if (this.openTurns.get(turn.conversationId) === turn) this.openTurns.delete(turn.conversationId);
    const now = this.deps.now();
    this.endSearches(turn, now);
    for (const [id, bar] of this.models) {
      if (bar.turn !== turn) continue;
      // An answer that never finished (the turn failed or was stopped mid-stream) ends with its turn.
      this.models.delete(id);
      this.endBar(bar, now);
    }
    this.endBar(turn.root, Math.max(now, ...turn.bars.map((b) => b.start + (b.view.durationMs ?? 0))));
  }

  private forget(turn: Turn): void {
    for (const bar of turn.bars) if (bar.view.callId) this.byCall.delete(bar.view.callId);
    for (const id of turn.messageIds) this.byMessage.delete(`${turn.conversationId}\n${id}`);
    for (const bar of turn.bars) {
      const spanId = bar.otel?.spanContext().spanId;
      if (spanId) this.bySpanId.delete(spanId);
    }
  }

  private remember(turn: Turn, messageId: number): void {
    turn.messageIds.push(messageId);
    this.byMessage.set(`${turn.conversationId}\n${messageId}`, turn);
  }

  private startBar(
    turn: Turn,
    fields: Omit<TimelineSpan, 'id' | 'startMs'>,
    start: number,
    parent: Bar | undefined,
    serverId?: string,
  ): Bar {
    const view: TimelineSpan = { id: `s${++this.seq}`, startMs: start - (turn.start ?? start), ...fields };
    if (parent) view.parentId = parent.view.id;
    const bar: Bar = { view, start, turn, ...(serverId ? { serverId } : {}) };
    const otel = this.deps.otel();
    if (otel) {
      // A bar whose parent was not exported (export turned on mid-turn) is not either; a lone call
      // (no chat) is its call span, its trace's root: one span per call, not a turn span around it.
      const otelParent = parent ? parent.otel : undefined;
      const exported = turn.lone ? fields.kind === 'tool' || otelParent !== undefined : !parent || otelParent !== undefined;
      if (exported) {
        bar.otel = startOtelSpan(otel, view, start, otelParent, serverId ? this.deps.facts(serverId) : undefined);
        this.bySpanId.set(bar.otel.spanContext().spanId, bar);
      }
    }
    turn.bars.push(bar);
    return bar;
  }

  private endBar(bar: Bar, end: number, extra: Attributes = {}): void {
    if (bar.view.durationMs !== undefined) return;
    bar.view.durationMs = Math.max(0, end - bar.start);
    if (bar.otel) {
      endOtelSpan(bar.otel, bar.view, end, extra);
      this.bySpanId.delete(bar.otel.spanContext().spanId);
    }
  }
}
