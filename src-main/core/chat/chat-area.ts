/**
 * Builds the chat area for the composition root: repositories and the chat service (its turns ask
 * the provider the model router picks for each conversation), plus the handlers and snapshot part
 * host.ts wires in.
 */
import type Database from 'better-sqlite3';
import type { ChatSnapshot, LlmStatus, Settings } from '@contract';
import type { HostEventBus } from '../events';
import type { ModelRouter } from '../llm/llm-types';
import type { Clock } from '../clock';
import type { QuickLlmControls } from '../llm/llm-area';
import type { ChatContextSources } from './chat-context';
import { TokenCounter } from '../context-meter/token-counter';
import type { TokenizerWorkerOptions } from '../context-meter/tokenizer-worker';
import type { InstructionsSource } from '../server-instructions/instructions-source';
import { createChatHandlers } from './chat-handlers';
import { createContextHandlers } from './context-handlers';
import { ContextMeasurer } from './context-measure';
import { ChatService } from './chat-service';
import type { ChatToolbox } from './chat-toolbox';
import { ConversationRepository } from './conversation-repository';
import { DraftRepository } from './draft-repository';
import { MessageRepository } from './message-repository';
import { MessageSender } from './message-sender';

export interface ChatAreaOptions {
  db: Database.Database;
  settings(): Settings;
  events: HostEventBus;
  clock: Clock;
  toolbox: ChatToolbox;
  /** Providers: the router that resolves each conversation's model, the Anthropic key's status, the quick key methods. */
  llm: { router: ModelRouter; status(): LlmStatus; quick: QuickLlmControls };
  /** Resources and prompts the user adds to messages (attachments, `/` prompts). */
  context?: ChatContextSources;
  /** Servers' instructions and the user's switches for them (the system prompt, the Overview). */
  instructions: InstructionsSource;
  /** Whether a server with this id is configured. */
  serverExists(serverId: string): boolean;
  /** The context meter's tokenizer worker (tests give it another source). */
  tokenizer?: TokenizerWorkerOptions;
}

export interface ChatArea {
  readonly name: 'chat';
  service: ChatService;
  handlers: ReturnType<typeof createChatHandlers> & ReturnType<typeof createContextHandlers>;
  snapshot(): { chat: ChatSnapshot };
  /** Stops every running turn (call before the fleet stops, so tool calls are cancelled first) and the tokenizer's worker. */
  dispose(): Promise<void>;
}

export function createChatArea(options: ChatAreaOptions): ChatArea {
  const { db, events, clock, llm } = options;
  const conversations = new ConversationRepository(db);
  const messages = new MessageRepository(db);
  const service = new ChatService({
    conversations,
    messages,
    router: llm.router,
    llmStatus: llm.status,
    toolbox: options.toolbox,
    settings: options.settings,
    events,
    now: clock.now,
  });
  const sender = new MessageSender(service, options.settings, options.context);
  // Tokenizes on a worker thread (started by the first count), stopped with the area.
  const counter = new TokenCounter(options.tokenizer);
  const measurer = new ContextMeasurer({
    toolbox: options.toolbox,
    instructions: options.instructions,
    counter,
    settings: options.settings,
    conversations,
    messages,
    router: llm.router,
    sender,
  });
  const drafts = new DraftRepository(db);
  const handlers = {
    ...createChatHandlers({ chat: service, quick: llm.quick, sender, drafts, now: clock.now }),
    ...createContextHandlers({ measurer, instructions: options.instructions, serverExists: options.serverExists }),
  };
  return {
    name: 'chat',
    service,
    handlers,
    snapshot: () => ({ chat: { ...service.snapshot(), drafts: drafts.all() } }),
    dispose: async () => {
      await service.dispose();
      await counter.dispose();
    },
  };
}
