/**
 * Builds the chat area for the composition root: repositories, the conversations and their turns
 * (which ask the provider the model router picks for each conversation), plus the handlers and
 * snapshot part host.ts wires in.
 */
import type Database from 'better-sqlite3';
import { HostCallError, type ChatSnapshot, type HandlersFor, type LlmStatus, type Settings, type toolOfferMethods } from '@contract';
import type { HostEventBus } from '../events';
import type { ModelRouter } from '../llm/llm-types';
import type { Clock } from '../clock';
import type { QuickLlmControls } from '../llm/llm-area';
import type { ChatContextSources } from './chat-context';
import type { TokenCounter } from '../context-meter/token-counter';
import type { InstructionsSource } from '../server-instructions/instructions-source';
import { createChatHandlers } from './chat-handlers';
import { createContextHandlers } from './context-handlers';
import { ContextMeasurer } from './context-measure';
import { ChatTurns } from './chat-turns';
import type { ChatToolbox } from './chat-toolbox';
import { ConversationRepository } from './conversation-repository';
import { Conversations } from './conversations';
import { DraftRepository } from './draft-repository';
import { MessageRepository } from './message-repository';
import { MessageSender } from './message-sender';
import { RunningTurns } from './running-turns';

export interface ChatAreaOptions {
  db: Database.Database;
  settings(): Settings;
  events: HostEventBus;
  clock: Clock;
  toolbox: ChatToolbox;
  /**
   * Providers: the router that resolves each conversation's model, the Anthropic key's status, the
   * quick key methods, and the removals the conversations follow (they go back to the default).
   */
  llm: { router: ModelRouter; status(): LlmStatus; quick: QuickLlmControls; whenProviderRemoved(listener: (id: string) => void): void };
  /** Resources and prompts the user adds to messages (attachments, `/` prompts). */
  context?: ChatContextSources;
  /** Servers' instructions and the user's switches for them (the system prompt, the Overview). */
  instructions: InstructionsSource;
  /** Whether a server with this id is configured. */
  serverExists(serverId: string): boolean;
  /**
   * The tool sets a conversation can be given (from the tool offers): whether one exists, and their
   * deletions, which the conversations that used them follow (back to every offered tool).
   */
  toolSets: { hasSet(id: string): boolean; whenSetDeleted(listener: (id: string) => void): void };
  /** The context meter's token counter (the context-meter area's, shared with the skills). */
  counter: TokenCounter;
}

export interface ChatArea {
  readonly name: 'chat';
  conversations: Conversations;
  turns: ChatTurns;
  handlers: ReturnType<typeof createChatHandlers> &
    ReturnType<typeof createContextHandlers> &
    Pick<HandlersFor<typeof toolOfferMethods>, 'setConversationToolSet'>;
  snapshot(): { chat: ChatSnapshot };
  /** Stops every running turn (call before the fleet stops, so tool calls are cancelled first). */
  dispose(): Promise<void>;
}

export function createChatArea(options: ChatAreaOptions): ChatArea {
  const { db, events, clock, llm } = options;
  const repository = new ConversationRepository(db);
  const messages = new MessageRepository(db);
  const running = new RunningTurns();
  const common = { messages, router: llm.router, settings: options.settings, events, now: clock.now, running };
  const conversations = new Conversations({ ...common, conversations: repository, llmStatus: llm.status });
  const turns = new ChatTurns({ ...common, conversations, repository, toolbox: options.toolbox });
  llm.whenProviderRemoved((id) => conversations.forgetProvider(id));
  options.toolSets.whenSetDeleted((id) => conversations.forgetToolSet(id));
  const sender = new MessageSender(turns, options.settings, options.context);
  const measurer = new ContextMeasurer({
    toolbox: options.toolbox,
    instructions: options.instructions,
    counter: options.counter,
    settings: options.settings,
    conversations: repository,
    messages,
    router: llm.router,
    sender,
  });
  const drafts = new DraftRepository(db);
  const handlers = {
    ...createChatHandlers({ conversations, turns, quick: llm.quick, sender, drafts, now: clock.now }),
    ...createContextHandlers({ measurer, instructions: options.instructions, serverExists: options.serverExists }),
    // The conversation's tool set (a method of the tool offers' part of the contract; it edits a conversation).
    setConversationToolSet: async ({ id, toolSetId }: { id: string; toolSetId: string | null }) => {
      if (toolSetId !== null && !options.toolSets.hasSet(toolSetId)) {
        throw new HostCallError('invalid_input', `No tool set with id ${toolSetId}: it may have been deleted. Choose another set.`);
      }
      return conversations.setToolSet(id, toolSetId);
    },
  };
  return {
    name: 'chat',
    conversations,
    turns,
    handlers,
    snapshot: () => ({ chat: { ...conversations.snapshot(), drafts: drafts.all() } }),
    dispose: () => turns.dispose(),
  };
}
