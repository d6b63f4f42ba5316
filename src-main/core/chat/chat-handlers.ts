import type { chatMethods, HandlersFor } from '@contract';
import type { QuickLlmControls } from '../llm/llm-area';
import type { ChatTurns } from './chat-turns';
import type { Conversations } from './conversations';
import type { DraftRepository } from './draft-repository';
import type { MessageSender } from './message-sender';

export interface ChatHandlerDeps {
  conversations: Conversations;
  turns: ChatTurns;
  /** The older key and model methods act on the Anthropic provider and the default model. */
  quick: QuickLlmControls;
  /** Sends messages with their attachments and chosen prompt. */
  sender: MessageSender;
  /** What was typed and not sent, per conversation. */
  drafts: DraftRepository;
  now(): Date;
}

/** The contract's chat methods. */
export function createChatHandlers({ conversations, turns, quick, sender, drafts, now }: ChatHandlerDeps): HandlersFor<typeof chatMethods> {
  return {
    createConversation: async (input) => conversations.create(input?.title),
    renameConversation: async ({ id, title }) => conversations.rename(id, title),
    deleteConversation: async ({ id }) => {
      await conversations.remove(id);
      drafts.forget(id);
    },
    getConversation: async ({ id }) => conversations.get(id),
    listConversations: async (input) => conversations.list(input),
    setConversationServers: async ({ id, serverIds }) => conversations.setServers(id, serverIds),
    listMessages: async ({ conversationId, beforeSeq, limit }) => conversations.page(conversationId, beforeSeq, limit),
    sendMessage: async (input) => sender.send(input),
    attachResource: async ({ serverId, uri, name }) => sender.attach(serverId, uri, name),
    detachResource: async ({ attachmentId }) => sender.detach(attachmentId),
    stopTurn: async ({ conversationId }) => turns.stop(conversationId),
    retryTurn: async ({ conversationId, withoutTools }) => turns.retry(conversationId, withoutTools),
    setConversationModel: async ({ id, providerId, model }) => conversations.setModel(id, { providerId, model }),
    saveChatDraft: async ({ conversationId, text }) => drafts.save(conversationId, text, now()),
    setApiKey: async ({ apiKey }) => quick.setKey(apiKey),
    clearApiKey: async () => quick.clearKey(),
    listModels: async () => quick.listModels(),
  };
}
