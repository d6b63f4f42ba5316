/**
 * Running turns: sending a message starts one, Retry runs it again, Stop ends it. At most one turn runs
 * per conversation; it runs here in the host (never in the renderer), and everything it does reaches
 * the renderer as events. On start, answers a killed host left `streaming` become `interrupted`.
 * Editing the conversations themselves is conversations.ts's job.
 */
import { type ChatBlock, type ChatError, type ChatMessage, HostCallError, type MessageRole, type Settings } from '@contract';
import type { HostEventBus } from '../events';
import type { ModelRouter } from '../llm/llm-types';
import { LlmError } from '../llm/llm-errors';
import { ToolIndexCache } from '../tool-search/tool-index';
import { runTurn, type TurnResult } from './agent-loop';
import type { ChatToolbox } from './chat-toolbox';
import type { ConversationRepository } from './conversation-repository';
import { NEW_CONVERSATION_TITLE, type Conversations } from './conversations';
import type { MessageRepository } from './message-repository';
import type { RunningTurn, RunningTurns } from './running-turns';

export interface ChatTurnsOptions {
  /** The conversations the turns run in (read, and published as a turn starts and ends). */
  conversations: Conversations;
  /** Where a turn's error and the title from the first message are written. */
  repository: ConversationRepository;
  messages: MessageRepository;
  /** Resolves a conversation's model to its provider. */
  router: ModelRouter;
  toolbox: ChatToolbox;
  settings(): Settings;
  events: HostEventBus;
  now(): Date;
  running: RunningTurns;
  /** Test seams for the recorder's timers. */
  checkpointMs?: number;
  batchMs?: number;
}

/** What a message carries besides the user's text. */
export interface SendExtra {
  /** The chosen prompt's messages, stored before the user's own. */
  promptMessages?: { role: MessageRole; content: ChatBlock[] }[];
  /** Blocks of the attached resources, stored in the user's message after the text. */
  attachments?: ChatBlock[];
  /** A title for a new conversation when there is no text (the prompt's or attachment's name). */
  titleHint?: string;
}

export class ChatTurns {
  /** The tool-search index, rebuilt only when the offered tools change. */
  private readonly toolIndexes = new ToolIndexCache();
  private readonly conversations: Conversations;
  private readonly repository: ConversationRepository;
  private disposed = false;

  constructor(private readonly options: ChatTurnsOptions) {
    this.conversations = options.conversations;
    this.repository = options.repository;
    options.messages.recoverInterrupted(options.now());
  }

  /** Throws unless a message can be sent to the conversation now (it exists, and no reply is being written). */
  assertCanSend(conversationId: string): void {
    this.conversations.stored(conversationId);
    this.assertIdle(conversationId);
  }

  /**
   * Commits the user's message (durably) — after the messages of a chosen prompt, with the blocks of
   * its attachments — then starts the turn without waiting for it, when the conversation now ends with
   * the user's words (a prompt that ends with an answer waits for the user to go on). Returns the last
   * committed message.
   */
  send(conversationId: string, text: string, extra: SendExtra = {}): ChatMessage {
    const conversation = this.conversations.stored(conversationId);
    this.assertIdle(conversationId);
    const own: ChatBlock[] = [...(text ? [{ type: 'text' as const, text }] : []), ...(extra.attachments ?? [])];
    const batch = [...(extra.promptMessages ?? []), ...(own.length > 0 ? [{ role: 'user' as const, content: own }] : [])];
    if (batch.length === 0) throw new HostCallError('invalid_input', 'Type a message first');
    const committed = this.options.messages.appendAll(
      batch.map((m) => ({ conversationId, role: m.role, content: m.content, status: 'complete' as const })),
      this.options.now(),
    );
    for (const message of committed) this.options.events.emit('chatMessage', message);
    const first = conversation.title === NEW_CONVERSATION_TITLE && conversation.messageCount === 0;
    const title = text || extra.titleHint || '';
    const last = committed[committed.length - 1];
    if (last.role === 'user') {
      this.start(conversationId);
      // The title from the first message is written while the request is on its way: its commit need not delay the first token.
      if (first) setImmediate(() => this.titleFromFirstMessage(conversationId, title));
    } else if (first) this.titleFromFirstMessage(conversationId, title);
    else this.conversations.publish(this.conversations.stored(conversationId));
    return last;
  }

  private titleFromFirstMessage(conversationId: string, text: string): void {
    if (this.disposed) return;
    try {
      if (this.repository.get(conversationId)?.title !== NEW_CONVERSATION_TITLE) return; // renamed or deleted meanwhile
      this.conversations.publish(this.repository.rename(conversationId, titleFrom(text), this.options.now())!);
    } catch (error) {
      // A convenience: the conversation keeps its title when it cannot be written (e.g. the database closed).
      console.error('[patchbay] could not title the conversation:', error);
    }
  }

  /**
   * Runs the turn again from the last user message. `withoutTools`: the model refused tools; it is
   * offered none from now on (Settings › Providers can offer them again).
   */
  retry(conversationId: string, withoutTools = false): void {
    this.assertIdle(conversationId);
    const conversation = this.conversations.stored(conversationId);
    if (withoutTools) {
      const { providerId, model } = this.options.router.route(conversation);
      this.options.router.markWithoutTools({ providerId, model });
    }
    const [last] = this.options.messages.page(conversationId, undefined, 1).messages;
    if (!last) throw new HostCallError('invalid_input', 'There is nothing to retry: send a message first.');
    if (!conversation.lastError && last.role === 'assistant' && last.status === 'complete') {
      throw new HostCallError('invalid_input', 'There is nothing to retry: the last answer is complete.');
    }
    this.start(conversationId);
  }

  /** Aborts the turn (stream and tool calls) and resolves once it has wound down. */
  stop(conversationId: string): Promise<void> {
    return this.options.running.stop(conversationId);
  }

  /** Stops every turn (quit). */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.options.running.stopAll();
  }

  private start(conversationId: string): void {
    if (this.disposed) throw new HostCallError('internal', 'Patchbay is shutting down.');
    const controller = new AbortController();
    const turn: RunningTurn = { controller, done: Promise.resolve() };
    this.options.running.add(conversationId, turn);
    const conversation = this.conversations.stored(conversationId);
    if (conversation.lastError) this.repository.setLastError(conversationId, undefined);
    this.conversations.publish(this.conversations.stored(conversationId));
    turn.done = this.run(conversationId, turn).finally(() => {
      this.options.running.delete(conversationId);
      const conversation = this.repository.get(conversationId);
      if (conversation) this.conversations.publish(conversation);
    });
  }

  private async run(conversationId: string, turn: RunningTurn): Promise<void> {
    const { events, now } = this.options;
    let result: TurnResult;
    try {
      const conversation = this.conversations.stored(conversationId);
      result = await runTurn({
        conversationId,
        route: this.options.router.route(conversation),
        toolbox: this.options.toolbox,
        messages: this.options.messages,
        settings: this.options.settings(),
        serverIds: conversation.serverIds,
        toolIndexes: this.toolIndexes,
        ...(conversation.toolSetId ? { toolSetId: conversation.toolSetId } : {}),
        signal: turn.controller.signal,
        now,
        onMessage: (message) => events.emit('chatMessage', message),
        onDelta: (messageId, ops) => events.emit('chatDelta', { conversationId, messageId, ops }),
        onUnroutedCall: (call) =>
          events.emit('toolCallFinished', {
            callId: call.id,
            chat: { conversationId, toolUseId: call.id },
            serverId: call.serverId,
            tool: call.name,
            origin: 'model',
            status: 'protocol_error',
            durationMs: 0,
          }),
        onRecorder: (recorder) => (turn.recorder = recorder),
        checkpointMs: this.options.checkpointMs,
        batchMs: this.options.batchMs,
      });
    } catch (error) {
      this.fail(conversationId, toChatError(error, now()));
      return;
    }
    if (result.kind === 'too-many-tools') {
      this.fail(
        conversationId,
        tooManyToolsError(
          result.count,
          result.limit,
          this.options.router.route(this.conversations.stored(conversationId)).providerName,
          now(),
        ),
      );
      return;
    }
    if (result.kind === 'round-cap') {
      this.fail(conversationId, {
        kind: 'round-cap',
        message: `Stopped after ${result.rounds} model requests in one turn (the limit set in Settings). Retry to let it go on.`,
        retryable: true,
        at: now().toISOString(),
      });
    }
  }

  private fail(conversationId: string, error: ChatError): void {
    if (this.repository.get(conversationId)) this.repository.setLastError(conversationId, error);
  }

  private assertIdle(conversationId: string): void {
    if (this.options.running.has(conversationId))
      throw new HostCallError('invalid_input', 'A reply is still being written: wait for it or press Stop.');
  }
}

/** A title from the first message: its first line, shortened at a word. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ');
  if (line.length <= 60) return line || NEW_CONVERSATION_TITLE;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${space > 30 ? cut.slice(0, space) : cut}…`;
}

/** Said before sending, instead of a request the provider would refuse; the user's message is kept. */
function tooManyToolsError(count: number, limit: number, providerName: string, at: Date): ChatError {
  return {
    kind: 'too-many-tools',
    message:
      `Not sent: this conversation offers ${count} tools and ${providerName} accepts at most ${limit} in one request. ` +
      'Turn on tool search, choose a tool set with fewer tools, or offer fewer servers or tools to this conversation, then press Retry. Your message is kept.',
    retryable: true,
    at: at.toISOString(),
  };
}

function toChatError(error: unknown, at: Date): ChatError {
  if (error instanceof LlmError)
    return {
      kind: error.kind === 'cancelled' ? 'internal' : error.kind,
      message: error.message,
      retryable: error.retryable,
      at: at.toISOString(),
    };
  console.error('[patchbay] chat turn failed:', error);
  return {
    kind: 'internal',
    message: `The turn failed: ${(error as Error).message ?? String(error)}`,
    retryable: true,
    at: at.toISOString(),
  };
}
