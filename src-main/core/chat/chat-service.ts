/**
 * The chat's live side: conversations and their turns. At most one turn runs per conversation; it
 * runs here in the host (never in the renderer), and everything it does reaches the renderer as
 * events. On start, answers a killed host left `streaming` become `interrupted`.
 */
import {
  type ChatBlock,
  type ChatError,
  type ChatMessage,
  type ChatSnapshot,
  CONVERSATION_PAGE_SIZE,
  type ConversationCursor,
  type ConversationPage,
  type ConversationSummary,
  HostCallError,
  type LlmStatus,
  type MessagePage,
  type MessageRole,
  type Settings,
} from '@contract';
import type { HostEventBus } from '../events';
import type { ModelChoice, ModelRouter } from '../llm/llm-types';
import { LlmError } from '../llm/llm-errors';
import { ToolIndexCache } from '../tool-search/tool-index';
import { runTurn, type TurnResult } from './agent-loop';
import type { AnswerRecorder } from './answer-recorder';
import type { ChatToolbox } from './chat-toolbox';
import type { ConversationRepository, StoredConversation } from './conversation-repository';
import type { MessageRepository } from './message-repository';

export const NEW_CONVERSATION_TITLE = 'New conversation';

export interface ChatServiceOptions {
  conversations: ConversationRepository;
  messages: MessageRepository;
  /** Resolves a conversation's model to its provider. */
  router: ModelRouter;
  /** The Anthropic provider's key status (what the chat's guidance shows). */
  llmStatus(): LlmStatus;
  toolbox: ChatToolbox;
  settings(): Settings;
  events: HostEventBus;
  now(): Date;
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

interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
  recorder?: AnswerRecorder;
}

export class ChatService {
  private readonly turns = new Map<string, RunningTurn>();
  /** The tool-search index, rebuilt only when the offered tools change. */
  private readonly toolIndexes = new ToolIndexCache();
  private disposed = false;

  constructor(private readonly options: ChatServiceOptions) {
    options.messages.recoverInterrupted(options.now());
  }

  /** The first page of conversations only (older ones are paged with `list`). */
  snapshot(): ChatSnapshot {
    const first = this.list({});
    return { conversations: first.conversations, moreConversations: first.hasMore, llm: this.options.llmStatus() };
  }

  /** A page of conversations (see `listConversations` in the contract). */
  list({ after, query, limit = CONVERSATION_PAGE_SIZE }: { after?: ConversationCursor; query?: string; limit?: number }): ConversationPage {
    const rows = this.options.conversations.list({ after, query, limit: limit + 1 });
    return { conversations: rows.slice(0, limit).map((c) => this.summary(c)), hasMore: rows.length > limit };
  }

  /** One conversation, or null when there is none with this id. */
  get(id: string): ConversationSummary | null {
    const conversation = this.options.conversations.get(id);
    return conversation ? this.summary(conversation) : null;
  }

  /**
   * A new conversation, starting with the default model (it keeps that model when the default changes).
   * Without a title, an unused one (no messages yet, never renamed) is reused and moved to the top, so
   * clicking New conversation again and again leaves no empty conversations behind.
   */
  create(title?: string): ConversationSummary {
    const { conversations, router } = this.options;
    const unused = title === undefined ? conversations.findEmpty(NEW_CONVERSATION_TITLE) : undefined;
    const toolSetId = this.options.settings().defaultToolSetId || undefined;
    if (unused && !this.turns.has(unused.id)) {
      const choice = router.defaultChoice();
      if (choice) conversations.setModel(unused.id, choice);
      conversations.setToolSet(unused.id, toolSetId ?? null);
      return this.publish(conversations.rename(unused.id, NEW_CONVERSATION_TITLE, this.options.now())!);
    }
    return this.publish(conversations.create(title ?? NEW_CONVERSATION_TITLE, this.options.now(), router.defaultChoice(), toolSetId));
  }

  /** The model of the conversation's next turns; the history stays and is mapped to the new provider. */
  setModel(id: string, choice: ModelChoice): ConversationSummary {
    this.stored(id);
    if (this.options.router.route(choice).providerId !== choice.providerId) {
      throw new HostCallError('invalid_input', `No provider with id ${choice.providerId}: it may have been removed.`);
    }
    // A running turn keeps the model it started with; the next one uses this.
    return this.publish(this.options.conversations.setModel(id, choice)!);
  }

  /** Conversations that used a removed provider follow the default again. */
  forgetProvider(providerId: string): void {
    for (const id of this.options.conversations.forgetProvider(providerId)) {
      const conversation = this.options.conversations.get(id);
      if (conversation) this.publish(conversation);
    }
  }

  rename(id: string, title: string): ConversationSummary {
    this.stored(id);
    return this.publish(this.options.conversations.rename(id, title, this.options.now())!);
  }

  /** The tool set of the conversation's next turns (null: every offered tool). */
  setToolSet(id: string, toolSetId: string | null): ConversationSummary {
    this.stored(id);
    return this.publish(this.options.conversations.setToolSet(id, toolSetId)!);
  }

  /** Conversations that used a deleted tool set offer every offered tool again. */
  forgetToolSet(toolSetId: string): void {
    for (const id of this.options.conversations.forgetToolSet(toolSetId)) {
      const conversation = this.options.conversations.get(id);
      if (conversation) this.publish(conversation);
    }
  }

  setServers(id: string, serverIds: string[] | null): ConversationSummary {
    this.stored(id);
    return this.publish(this.options.conversations.setServers(id, serverIds === null ? null : [...new Set(serverIds)])!);
  }

  async remove(id: string): Promise<void> {
    this.stored(id);
    await this.stop(id);
    this.options.conversations.remove(id);
    this.options.events.emit('conversationRemoved', { id });
  }

  /** A page of history; an answer being streamed comes with its live content. */
  page(conversationId: string, beforeSeq: number | undefined, limit: number): MessagePage {
    this.stored(conversationId);
    const page = this.options.messages.page(conversationId, beforeSeq, limit);
    const live = this.turns.get(conversationId)?.recorder?.live();
    if (!live) return page;
    return { ...page, messages: page.messages.map((m) => (m.id === live.id ? live : m)) };
  }

  /** Throws unless a message can be sent to the conversation now (it exists, and no reply is being written). */
  assertCanSend(conversationId: string): void {
    this.stored(conversationId);
    this.assertIdle(conversationId);
  }

  /**
   * Commits the user's message (durably) — after the messages of a chosen prompt, with the blocks of
   * its attachments — then starts the turn without waiting for it, when the conversation now ends with
   * the user's words (a prompt that ends with an answer waits for the user to go on). Returns the last
   * committed message.
   */
  send(conversationId: string, text: string, extra: SendExtra = {}): ChatMessage {
    const conversation = this.stored(conversationId);
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
    else this.publish(this.stored(conversationId));
    return last;
  }

  private titleFromFirstMessage(conversationId: string, text: string): void {
    if (this.disposed) return;
    try {
      if (this.options.conversations.get(conversationId)?.title !== NEW_CONVERSATION_TITLE) return; // renamed or deleted meanwhile
      this.publish(this.options.conversations.rename(conversationId, titleFrom(text), this.options.now())!);
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
    const conversation = this.stored(conversationId);
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
  async stop(conversationId: string): Promise<void> {
    const turn = this.turns.get(conversationId);
    if (!turn) return;
    turn.controller.abort(new Error('Stopped by the user'));
    await turn.done;
  }

  /** Stops every turn (quit). */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.turns.keys()].map((id) => this.stop(id)));
  }

  private start(conversationId: string): void {
    if (this.disposed) throw new HostCallError('internal', 'Patchbay is shutting down.');
    const controller = new AbortController();
    const turn: RunningTurn = { controller, done: Promise.resolve() };
    this.turns.set(conversationId, turn);
    const conversation = this.stored(conversationId);
    if (conversation.lastError) this.options.conversations.setLastError(conversationId, undefined);
    this.publish(this.stored(conversationId));
    turn.done = this.run(conversationId, turn).finally(() => {
      this.turns.delete(conversationId);
      const conversation = this.options.conversations.get(conversationId);
      if (conversation) this.publish(conversation);
    });
  }

  private async run(conversationId: string, turn: RunningTurn): Promise<void> {
    const { events, now } = this.options;
    let result: TurnResult;
    try {
      const conversation = this.stored(conversationId);
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
        tooManyToolsError(result.count, result.limit, this.options.router.route(this.stored(conversationId)).providerName, now()),
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
    if (this.options.conversations.get(conversationId)) this.options.conversations.setLastError(conversationId, error);
  }

  private assertIdle(conversationId: string): void {
    if (this.turns.has(conversationId))
      throw new HostCallError('invalid_input', 'A reply is still being written: wait for it or press Stop.');
  }

  private stored(id: string): StoredConversation {
    const conversation = this.options.conversations.get(id);
    if (!conversation) throw new HostCallError('invalid_input', `No conversation with id ${id}`);
    return conversation;
  }

  private summary(conversation: StoredConversation): ConversationSummary {
    const { lastError, ...rest } = conversation;
    return { ...rest, turn: this.turns.has(conversation.id) ? 'running' : 'idle', ...(lastError ? { lastError } : {}) };
  }

  private publish(conversation: StoredConversation): ConversationSummary {
    const summary = this.summary(conversation);
    this.options.events.emit('conversationUpdated', summary);
    return summary;
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
