import { z } from 'zod';
import { ByIdSchema, IdString, method, NoInput } from './method';
import type { ContentFlag } from './content-flags';
import type { ChatBlock, ChatError, ChatMessage } from './messages';

/**
 * Chat with Claude using the tools of connected servers. Conversations and their messages live in
 * the host (SQLite); the turn (model requests, tool calls) runs in the host too. The renderer sends
 * intents (`sendMessage`, `stopTurn`, `retryTurn`) and mirrors what the events report.
 */

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** The servers whose tools this conversation offers; null means every Ready server. */
  serverIds: string[] | null;
  /** The tool set this conversation uses (absent: every offered tool). */
  toolSetId?: string;
  turn: 'idle' | 'running';
  /**
   * The model this conversation uses (chosen in the header; a new conversation starts with the default
   * from Settings). Absent: the default (conversations from before providers existed).
   */
  providerId?: string;
  model?: string;
  /** How the last turn failed (cleared when the next one starts). */
  lastError?: ChatError;
  /** In search results (`listConversations` with a query) found by a message: the words around the match. */
  match?: string;
}

/** Whether an API key is there, and where an entered key is kept. The key itself never leaves the host. */
export interface ApiKeyStatus {
  state: 'set' | 'not-set';
  /** Where the key in use comes from. */
  source?: 'stored' | 'environment';
  /** Plain words on where an entered key is stored and who can read it. */
  storage: string;
  /** A stored key that cannot be opened (e.g. sealed by the desktop app's keychain). */
  problem?: string;
}

export interface LlmStatus {
  apiKey: ApiKeyStatus;
}

export interface ChatSnapshot {
  /** The first page of conversations, most recently updated first (`listConversations` pages on). */
  conversations: ConversationSummary[];
  /** Older conversations exist after the first page. */
  moreConversations: boolean;
  llm: LlmStatus;
  /** What was typed and not sent, by conversation id ('' for the box before any conversation exists). */
  drafts?: Record<string, string>;
}

/** Where a page of conversations ends: the last one's place in the order (updated time, then id, both descending). */
export interface ConversationCursor {
  updatedAt: string;
  id: string;
}

/** One page of conversations, most recently updated first. */
export interface ConversationPage {
  conversations: ConversationSummary[];
  /** More conversations follow the last one. */
  hasMore: boolean;
}

/** Conversations in the snapshot and in a page unless asked otherwise. */
export const CONVERSATION_PAGE_SIZE = 100;

/** The order of the conversation list (and of its pages): most recently updated first, then by id, descending. */
export function compareConversations(a: ConversationCursor, b: ConversationCursor): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** One page of history, oldest first. */
export interface MessagePage {
  messages: ChatMessage[];
  /** Older messages exist before the first one. */
  hasMore: boolean;
}

export interface ModelInfo {
  id: string;
  displayName: string;
}

export interface ModelList {
  models: ModelInfo[];
  /** `api`: from the Models API; `fallback`: the built-in list (with `note` saying why). */
  source: 'api' | 'fallback';
  note?: string;
}

/** A change to a streaming message: text appended at an offset of a block, or a block (re)placed. */
export type ChatDeltaOp = { op: 'text'; index: number; at: number; text: string } | { op: 'block'; index: number; block: ChatBlock };

export interface ChatDelta {
  conversationId: string;
  messageId: number;
  ops: ChatDeltaOp[];
}

/** Longest message the composer sends. */
export const MAX_MESSAGE_CHARS = 200_000;
/** Largest history page. */
export const MAX_PAGE_SIZE = 500;

const ConversationIdSchema = z.object({ conversationId: IdString });
const TitleSchema = z.string().trim().min(1, 'A title is required').max(200, 'At most 200 characters');
const CreateConversationSchema = z.object({ title: TitleSchema.optional() }).optional();
const RenameSchema = z.object({ id: IdString, title: TitleSchema });
const ServersSchema = z.object({ id: IdString, serverIds: z.array(IdString).max(500).nullable() });
const ListMessagesSchema = z.object({
  conversationId: IdString,
  /** Only messages with a smaller seq (the next older page); omitted: the newest page. */
  beforeSeq: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
const ListConversationsSchema = z.object({
  /** Only conversations after this one in the list's order (the next page). */
  after: z.object({ updatedAt: z.string().max(40), id: IdString }).optional(),
  /** Only conversations whose title or messages' text contains this text (case-insensitive for ASCII letters). */
  query: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(CONVERSATION_PAGE_SIZE),
});
/** Most attachments one message carries. */
export const MAX_ATTACHMENTS = 20;

/** A resource attached to the message being written (`attachResource`), ready to show as a chip. */
export interface AttachmentView {
  /** Names the content the host read and holds for the message (so what is sent is what was sized). */
  attachmentId: string;
  serverId: string;
  serverName: string;
  uri: string;
  name: string;
  mimeType?: string;
  /** text: the model reads it; image: sent as an image; binary: only described. */
  kind: 'text' | 'image' | 'binary';
  /** Characters of the message's budget it uses. */
  chars: number;
  /** Size of what the server returned. */
  bytes: number;
  /** Set when it cannot be sent as it is (too large for any budget, an image over the API's limit…). */
  problem?: string;
  /** What the content scanner flagged in it (Flagged content let it be attached: Warn only, or the user said so). */
  flags?: ContentFlag[];
}

const SendSchema = z
  .object({
    conversationId: IdString,
    text: z.string().trim().max(MAX_MESSAGE_CHARS, `At most ${MAX_MESSAGE_CHARS} characters`),
    /** Resources attached with `attachResource`; if the host no longer holds one, it reads it again. */
    attachments: z
      .array(z.object({ attachmentId: IdString, serverId: IdString, uri: z.string().min(1).max(8_192) }).strict())
      .max(MAX_ATTACHMENTS, `At most ${MAX_ATTACHMENTS} attachments`)
      .default([]),
    /** A prompt fetched with `getPrompt({ purpose: 'chat' })`: its messages go into the conversation first. */
    promptUseId: IdString.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.text === '' && input.attachments.length === 0 && input.promptUseId === undefined)
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'Type a message first' });
  });
const AttachSchema = z
  .object({
    serverId: IdString,
    uri: z.string().min(1).max(8_192),
    /** What to call it when the server's list does not name it (a URI expanded from a template). */
    name: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
const DetachSchema = z.object({ attachmentId: IdString }).strict();
/** An API key as entered: trimmed, printable ASCII without spaces. */
export const ApiKeyString = z
  .string()
  .trim()
  .min(1, 'Paste your API key')
  .max(500)
  .regex(/^[\x21-\x7e]+$/, 'An API key has no spaces or special characters');
const ApiKeySchema = z.object({ apiKey: ApiKeyString });
const RetrySchema = z.object({
  conversationId: IdString,
  /** Offer the model no tools from now on (after it said it cannot use them), then run the turn again. */
  withoutTools: z.boolean().optional(),
});
const DraftSchema = z
  .object({
    /** The conversation, or '' for the message box before any conversation exists. */
    conversationId: z.union([IdString, z.literal('')]),
    text: z.string().max(MAX_MESSAGE_CHARS, `At most ${MAX_MESSAGE_CHARS} characters`),
  })
  .strict();
const ModelChoiceSchema = z.object({ id: IdString, providerId: IdString, model: z.string().trim().min(1).max(200) });

export const chatMethods = {
  createConversation: method<typeof CreateConversationSchema, ConversationSummary>(CreateConversationSchema),
  renameConversation: method<typeof RenameSchema, ConversationSummary>(RenameSchema),
  /** Stops its turn if one runs, then deletes the conversation and all its messages. */
  deleteConversation: method<typeof ByIdSchema, void>(ByIdSchema),
  /** One conversation by id (a link or a reload names it), or null when there is none (deleted). */
  getConversation: method<typeof ByIdSchema, ConversationSummary | null>(ByIdSchema),
  /** A page of conversations by keyset (after a cursor), optionally only those whose title or messages match a search (with `match`). */
  listConversations: method<typeof ListConversationsSchema, ConversationPage>(ListConversationsSchema),
  /** Which servers' tools the conversation offers (null: every Ready server). */
  setConversationServers: method<typeof ServersSchema, ConversationSummary>(ServersSchema),
  /** A page of history by keyset (seq), oldest first; a streaming message comes with its live content. */
  listMessages: method<typeof ListMessagesSchema, MessagePage>(ListMessagesSchema),
  /**
   * Commits the user's message — after the messages of a chosen prompt, and with its attachments —
   * then starts the turn (when the conversation ends with the user's words); resolves with the last
   * committed message. Over the attachment budget, nothing is committed.
   */
  sendMessage: method<typeof SendSchema, ChatMessage>(SendSchema),
  /** Reads a resource for the message being written (the user's action, audited) and holds it until sent. */
  attachResource: method<typeof AttachSchema, AttachmentView>(AttachSchema),
  /** Lets go of an attachment removed from the message box. */
  detachResource: method<typeof DetachSchema, void>(DetachSchema),
  /** Aborts the stream and cancels in-flight tool calls; what was written so far is kept. */
  stopTurn: method<typeof ConversationIdSchema, void>(ConversationIdSchema),
  /** Runs the turn again from the last user message (after an error); `withoutTools` after a model refused tools. */
  retryTurn: method<typeof RetrySchema, void>(RetrySchema),
  /** The model (provider › model) the conversation's next turns use; the history is kept and mapped. */
  setConversationModel: method<typeof ModelChoiceSchema, ConversationSummary>(ModelChoiceSchema),
  /** Keeps what is typed in a conversation's message box, so a reload gives it back ('' text forgets it). */
  saveChatDraft: method<typeof DraftSchema, void>(DraftSchema),
  /** Seals and stores the key of the Anthropic provider (Settings' quick field); it is never sent back. */
  setApiKey: method<typeof ApiKeySchema, LlmStatus>(ApiKeySchema),
  clearApiKey: method<typeof NoInput, LlmStatus>(NoInput),
  /** The default provider's models (its models API when reachable, else a built-in list). */
  listModels: method<typeof NoInput, ModelList>(NoInput),
};

export interface ChatEvents {
  /** A conversation was created, renamed, changed or got a new message. */
  conversationUpdated: ConversationSummary;
  conversationRemoved: { id: string };
  /** A message was committed or replaced (user message, finished or interrupted answer, tool results). */
  chatMessage: ChatMessage;
  /** Streamed changes to a message, batched. */
  chatDelta: ChatDelta;
  llmStatusChanged: LlmStatus;
}
