import type { chatMethods, HandlersFor } from '@contract';
import type { QuickLlmControls } from '../llm/llm-area';
import type { ChatService } from './chat-service';
import type { DraftRepository } from './draft-repository';
import type { MessageSender } from './message-sender';

export interface ChatHandlerDeps {
  chat: ChatService;
  /** The older key and model methods act on the Anthropic provider and the default model. */
  quick: QuickLlmControls;
  /** Sends messages with their attachments and chosen prompt. */
  sender: MessageSender;
  /** What was typed and not sent, per conversation. */
  drafts: DraftRepository;
  now(): Date;
}

/** The contract's chat methods. */
export function createChatHandlers({ chat, quick, sender, drafts, now }: ChatHandlerDeps): HandlersFor<typeof chatMethods> {
  return {
    createConversation: async (input) => chat.create(input?.title),
    renameConversation: async ({ id, title }) => chat.rename(id, title),
    deleteConversation: async ({ id }) => {
      await chat.remove(id);
      drafts.forget(id);
    },
    getConversation: async ({ id }) => chat.get(id),
    listConversations: async (input) => chat.list(input),
    setConversationServers: async ({ id, serverIds }) => chat.setServers(id, serverIds),
    listMessages: async ({ conversationId, beforeSeq, limit }) => chat.page(conversationId, beforeSeq, limit),
    sendMessage: async (input) => sender.send(input),
    attachResource: async ({ serverId, uri, name }) => sender.attach(serverId, uri, name),
    detachResource: async ({ attachmentId }) => sender.detach(attachmentId),
    stopTurn: async ({ conversationId }) => chat.stop(conversationId),
    retryTurn: async ({ conversationId, withoutTools }) => chat.retry(conversationId, withoutTools),
    setConversationModel: async ({ id, providerId, model }) => chat.setModel(id, { providerId, model }),
    saveChatDraft: async ({ conversationId, text }) => drafts.save(conversationId, text, now()),
    setApiKey: async ({ apiKey }) => quick.setKey(apiKey),
    clearApiKey: async () => quick.clearKey(),
    listModels: async () => quick.listModels(),
  };
}
