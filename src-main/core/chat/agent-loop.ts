/**
 * One turn of the agent loop: ask the model (streaming), run the tool calls it makes (each through
 * the toolbox, i.e. consent), send the results back, and go on until the model ends its turn, the
 * user stops it, or the round cap is hit. Every step is stored as it happens.
 */
import type { ChatBlock, ChatDeltaOp, ChatMessage, Settings, ToolUseBlock } from '@contract';
import type { ModelRoute } from '../llm/llm-types';
import { LlmError } from '../llm/llm-errors';
import { toLlmMessages } from './api-history';
import { AnswerRecorder } from './answer-recorder';
import { AnswerCap } from './answer-cap';
import type { ChatToolbox } from './chat-toolbox';
import type { MessageRepository } from './message-repository';
import { requestSystemPrompt, toolsOfTurn } from './request-context';
import { notRunBlock, toResultBlock } from './tool-results';
import type { ToolIndexCache } from '../tool-search/tool-index';
import type { TurnTools } from './turn-tools';

/** At most this many stored messages are read for a request (more never fit a context window). */
export const MAX_HISTORY_MESSAGES = 10_000;

export interface TurnDeps {
  conversationId: string;
  /** The provider and model this turn asks (the conversation's choice), and whether tools are offered. */
  route: ModelRoute;
  toolbox: ChatToolbox;
  messages: MessageRepository;
  settings: Pick<Settings, 'maxTokens' | 'systemPrompt' | 'maxToolRounds' | 'toolResultMaxChars' | 'toolSearch' | 'maxAnswerChars'>;
  /** Tool-search indexes kept between turns (absent: the turn builds its own when the model searches). */
  toolIndexes?: ToolIndexCache;
  /** The servers whose tools are offered; null: every Ready server. */
  serverIds: string[] | null;
  /** The conversation's tool set (absent: every offered tool). */
  toolSetId?: string;
  signal: AbortSignal;
  now(): Date;
  onMessage(message: ChatMessage): void;
  onDelta(messageId: number, ops: ChatDeltaOp[]): void;
  /**
   * A call no server offers ended at once, answered by the loop (the router reports every other call
   * on the tool-call stream, with this conversation's reference).
   */
  onUnroutedCall(call: ToolUseBlock): void;
  /** The answer being streamed right now (for history pages asked for mid-stream). */
  onRecorder?(recorder: AnswerRecorder | undefined): void;
  /** Test seams for the recorder's timers. */
  checkpointMs?: number;
  batchMs?: number;
}

export type TurnResult =
  | { kind: 'done' }
  | { kind: 'stopped' }
  | { kind: 'round-cap'; rounds: number }
  /** Tool search is off and more tools are offered than the provider accepts: nothing was sent. */
  | { kind: 'too-many-tools'; count: number; limit: number };

/**
 * Runs a turn to its end. Resolves with how it ended; rejects with an `LlmError` when the model
 * request fails (what was written is kept, interrupted, and unrun calls get results saying so).
 */
export async function runTurn(deps: TurnDeps): Promise<TurnResult> {
  const { messages, conversationId, settings, signal, route } = deps;
  // A model that refused tools is offered none (its history's tool blocks go as text).
  const turnTools = toolsOfTurn(deps.toolbox, { serverIds: deps.serverIds, toolSetId: deps.toolSetId }, route, settings, deps.toolIndexes);
  const names = turnTools.names;

  for (let round = 1; ; round++) {
    const history = messages.recent(conversationId, MAX_HISTORY_MESSAGES);
    // Found tools join the request after the search that found them (the plan reads them from the history).
    const plan = turnTools.plan(history);
    if (plan.kind === 'over-limit') return { kind: 'too-many-tools', count: plan.count, limit: plan.limit };
    const tools = plan.tools;
    // Instructions follow the tools: a server's go only in a request that offers one of its tools.
    const system = requestSystemPrompt(settings, deps.toolbox, turnTools, tools);
    const recorder = new AnswerRecorder({
      messages,
      conversationId,
      model: route.model,
      providerId: route.providerId,
      now: deps.now,
      resolveTool: (name) => names.resolve(name),
      onMessage: deps.onMessage,
      onDelta: deps.onDelta,
      checkpointMs: deps.checkpointMs,
      batchMs: deps.batchMs,
    });
    deps.onRecorder?.(recorder);
    const cap = new AnswerCap(settings.maxAnswerChars);
    // Ends this request alone (an answer over the cap) or with the turn (the user's Stop).
    const reading = new AbortController();
    const stopReading = () => reading.abort();
    signal.addEventListener('abort', stopReading, { once: true });
    let response;
    try {
      const request = {
        model: route.model,
        maxTokens: settings.maxTokens,
        system,
        messages: toLlmMessages(history, { offerTools: tools.length > 0 }),
        tools,
      };
      for await (const event of route.provider.createMessage(request, { signal: reading.signal })) {
        const fit = cap.fit(event);
        if (fit.event) recorder.accept(fit.event);
        if (fit.full) {
          reading.abort();
          throw cap.error();
        }
        if (event.type === 'message-stop') response = event.response;
      }
      if (!response) throw new LlmError('network', 'The answer stopped before it was complete. Retry to try again.');
    } catch (error) {
      recorder.interrupt();
      const stopped = signal.aborted || (error instanceof LlmError && error.kind === 'cancelled');
      recordNotRun(deps, recorder.toolUses(), stopped ? 'Not run: the user stopped the turn.' : 'Not run: the answer failed part-way.');
      if (stopped) return { kind: 'stopped' };
      throw error;
    } finally {
      signal.removeEventListener('abort', stopReading);
      deps.onRecorder?.(undefined);
    }
    recorder.finish(response);
    const calls = recorder.toolUses();
    if (response.stopReason !== 'tool_use' || calls.length === 0) return { kind: 'done' };
    if (round >= settings.maxToolRounds) {
      recordNotRun(deps, calls, `Not run: this turn reached its limit of ${settings.maxToolRounds} model requests.`);
      return { kind: 'round-cap', rounds: round };
    }
    await runCalls(deps, calls, turnTools);
    if (signal.aborted) return { kind: 'stopped' };
  }
}

/** Runs the calls of one answer in order and stores their results as one user message. */
async function runCalls(deps: TurnDeps, calls: ToolUseBlock[], turnTools: TurnTools): Promise<void> {
  const results: ChatBlock[] = [];
  for (const call of calls) {
    if (deps.signal.aborted) {
      // Its card shows the stored result, committed below in the same go.
      results.push(notRunBlock(call.id, 'Not run: the user stopped the turn.'));
      continue;
    }
    if (turnTools.isSearchCall(call)) {
      // Answered by the host: no server, no consent (it only reads the catalog); shown by its stored result.
      results.push(turnTools.answerSearch(call));
      continue;
    }
    if (turnTools.skills.isCall(call)) {
      // Answered by the host: the skills area reads and verifies the skill; what comes back is marked as
      // data, and a server's skill is scanned like a tool result before the model reads it.
      const { block, server } = await turnTools.skills.answer(call, deps.signal);
      const context = server && { conversationId: deps.conversationId, ...server, toolName: call.name, signal: deps.signal };
      results.push(context && deps.toolbox.review ? await deps.toolbox.review(block, context) : block);
      continue;
    }
    if (!call.serverId) {
      results.push(notRunBlock(call.id, `There is no tool named ${call.name}.`, 'error'));
      deps.onUnroutedCall(call);
      continue;
    }
    const done = await deps.toolbox.call({
      serverId: call.serverId,
      tool: call.toolName,
      args: call.input,
      origin: 'model',
      signal: deps.signal,
      chat: { conversationId: deps.conversationId, toolUseId: call.id },
    });
    const block = toResultBlock(call.id, done, deps.settings.toolResultMaxChars, { serverName: call.serverName, toolName: call.toolName });
    // What the server sent is scanned before the model sees it (the router's own words for a denial are not).
    const fromServer = done.status === 'ok' || done.status === 'tool_error';
    const context = { conversationId: deps.conversationId, serverId: call.serverId, serverName: call.serverName, toolName: call.toolName };
    results.push(fromServer && deps.toolbox.review ? await deps.toolbox.review(block, { ...context, signal: deps.signal }) : block);
  }
  deps.onMessage(
    deps.messages.append({ conversationId: deps.conversationId, role: 'user', content: results, status: 'complete' }, deps.now()),
  );
}

/** Stores "did not run" results for calls the turn will not run, so the cards and the history say so. */
function recordNotRun(deps: TurnDeps, calls: ToolUseBlock[], why: string): void {
  if (calls.length === 0) return;
  const content = calls.map((call) => notRunBlock(call.id, why));
  deps.onMessage(deps.messages.append({ conversationId: deps.conversationId, role: 'user', content, status: 'complete' }, deps.now()));
}
