/**
 * Editing conversations: listing and paging them, creating, renaming, choosing their model, tool set
 * and servers, and removing them — each change published as `conversationUpdated`. Running turns is
 * chat-turns.ts's job; this reads only whether one runs (and its streamed answer) from `RunningTurns`.
 */
import {
  CONVERSATION_PAGE_SIZE,
  type ChatSnapshot,
  type ConversationCursor,
  type ConversationPage,
  type ConversationSummary,
  HostCallError,
  type LlmStatus,
  type MessagePage,
  type Settings,
} from '@contract';
import type { HostEventBus } from '../events';
import type { ModelChoice, ModelRouter } from '../llm/llm-types';
import type { ConversationRepository, StoredConversation } from './conversation-repository';
import type { MessageRepository } from './message-repository';
import type { RunningTurns } from './running-turns';

export const NEW_CONVERSATION_TITLE = 'New conversation';

export interface ConversationsOptions {
  conversations: ConversationRepository;
  messages: MessageRepository;
  /** Resolves a conversation's model to its provider. */
  router: ModelRouter;
  /** The Anthropic provider's key status (what the chat's guidance shows). */
  llmStatus(): LlmStatus;
  settings(): Settings;
  events: HostEventBus;
  now(): Date;
  running: RunningTurns;
}

export class Conversations {
  constructor(private readonly options: ConversationsOptions) {}

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
    if (unused && !this.options.running.has(unused.id)) {
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
    await this.options.running.stop(id);
    this.options.conversations.remove(id);
    this.options.events.emit('conversationRemoved', { id });
  }

  /** A page of history; an answer being streamed comes with its live content. */
  page(conversationId: string, beforeSeq: number | undefined, limit: number): MessagePage {
    this.stored(conversationId);
    const page = this.options.messages.page(conversationId, beforeSeq, limit);
    const live = this.options.running.live(conversationId);
    if (!live) return page;
    return { ...page, messages: page.messages.map((m) => (m.id === live.id ? live : m)) };
  }

  /** The stored conversation; throws when there is none with this id. */
  stored(id: string): StoredConversation {
    const conversation = this.options.conversations.get(id);
    if (!conversation) throw new HostCallError('invalid_input', `No conversation with id ${id}`);
    return conversation;
  }

  /** Tells the renderer the conversation as it stands (its turn running or idle). */
  publish(conversation: StoredConversation): ConversationSummary {
    const summary = this.summary(conversation);
    this.options.events.emit('conversationUpdated', summary);
    return summary;
  }

  private summary(conversation: StoredConversation): ConversationSummary {
    const { lastError, ...rest } = conversation;
    return { ...rest, turn: this.options.running.has(conversation.id) ? 'running' : 'idle', ...(lastError ? { lastError } : {}) };
  }
}
