import { z } from 'zod';
import { ByIdSchema, IdString, method, NoInput } from './method';
import type { ToolRunStatus } from './tools';

/**
 * Chat with Claude using the tools of connected servers. Conversations and their messages live in
 * the host (SQLite); the turn (model requests, tool calls) runs in the host too. The renderer sends
 * intents (`sendMessage`, `stopTurn`, `retryTurn`) and mirrors what the events report.
 */

/** Where a tool call stands, as its card shows it. */
export const TOOL_CALL_STATUSES = ['waiting-approval', 'running', 'done', 'error', 'denied', 'cancelled'] as const;
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];
/** How a tool call ended (the last four statuses). */
export type ToolOutcome = Extract<ToolCallStatus, 'done' | 'error' | 'denied' | 'cancelled'>;
/** A run's status as its chat card (and the stored result) says it: the card does not tell the tool's own failure from the call's. */
export const TOOL_OUTCOME: Readonly<Record<ToolRunStatus, ToolOutcome>> = {
  ok: 'done',
  tool_error: 'error',
  protocol_error: 'error',
  cancelled: 'cancelled',
  denied: 'denied',
};

/**
 * One piece of a tool's result as the user sees it: always the whole result. Resource links and
 * embedded resources keep their URI so the card can open them through the server; the model gets
 * them as text (a binary embedded resource only described).
 */
export type ToolResultPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; data: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blobBytes?: number };

/**
 * Where a resource in a message came from: attached by the user, embedded in a prompt they chose, or
 * the model context a tool's app set (MCP Apps `ui/update-model-context`).
 */
export type ResourceOrigin = 'attachment' | 'prompt' | 'app';

/**
 * The host's own tool-search tool, offered to the model when tool search is on. Server tools are
 * offered as `<server>__<tool>` (or that cut to 54 characters plus `_` and an 8-character hash, 63 in
 * all), so a short name without `__` can never be one of theirs.
 */
export const TOOL_SEARCH_TOOL_NAME = 'search_tools';

/** What one tool search asked and found (stored with its result, so found tools stay offered after a reload). */
export interface ToolSearchRecord {
  query: string;
  found: { serverId: string; toolName: string; name: string }[];
}

/** A content block of a stored message (our format, close to the Messages API's). */
export type ChatBlock =
  | { type: 'text'; text: string }
  /** Base64 image data. */
  | { type: 'image'; mediaType: string; data: string }
  | {
      type: 'tool_use';
      /**
       * Patchbay's id for this call, unique in the conversation; the matching result, the live status
       * events and the audit trail carry it as `toolUseId`. (Calls stored before Patchbay made its own
       * ids have the provider's here and no `apiId`.)
       */
      id: string;
      /**
       * The provider's id for the call, sent back to it in the history. Never used to tell calls apart:
       * OpenAI-compatible servers may name every call `call_1`.
       */
      apiId?: string;
      /** The name the model used (the namespaced API name). */
      name: string;
      input: Record<string, unknown>;
      serverId: string;
      serverName: string;
      /** The tool's own name on its server. */
      toolName: string;
    }
  | {
      type: 'tool_result';
      toolUseId: string;
      content: ToolResultPart[];
      isError: boolean;
      outcome: ToolOutcome;
      /** Text beyond this many characters was cut from what the model got (the user sees it all). */
      modelLimitChars?: number;
      /**
       * The arguments the call ran with, when the user changed the model's in the consent dialog
       * (the tool_use keeps the model's own: the Messages API history must stay what the model wrote).
       */
      editedArgs?: Record<string, unknown>;
      /** The tool has an app (MCP Apps): its card shows it. */
      app?: { resourceUri: string };
      /** For a tool with an app: the result's structured content, for the app (absent when over the size cap). */
      structuredContent?: Record<string, unknown>;
      /** The host's tool search answered this call: what was asked and the tools it found (offered from then on). */
      toolSearch?: ToolSearchRecord;
    }
  /**
   * A resource the user attached (or a prompt they chose embedded), as the model gets it: its text with
   * its URI and name, an image, or — for other binary content — a description (`note`), never the bytes.
   */
  | {
      type: 'resource';
      serverId: string;
      serverName: string;
      uri: string;
      name: string;
      mimeType?: string;
      origin: ResourceOrigin;
      text?: string;
      image?: { mediaType: string; data: string };
      note?: string;
      /** Characters it costs the message's budget. */
      chars: number;
    }
  /** Marks a message that came from a prompt the user chose (`/` in the message box). Not sent to the model. */
  | {
      type: 'prompt';
      serverId: string;
      serverName: string;
      name: string;
      arguments: Record<string, string>;
      /** This message's place among the prompt's messages (1-based) and how many it made. */
      part: number;
      of: number;
    };

export type MessageRole = 'user' | 'assistant';
/** `streaming` while the model writes it; `interrupted` when stopped, failed or killed part-way (kept). */
export type MessageStatus = 'complete' | 'streaming' | 'interrupted';

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatMessage {
  id: number;
  conversationId: string;
  /** Position in the conversation (1, 2, …): the key history pages by. */
  seq: number;
  role: MessageRole;
  content: ChatBlock[];
  status: MessageStatus;
  createdAt: string;
  model?: string;
  /** The provider that wrote an answer (absent for messages from before providers existed). */
  providerId?: string;
  stopReason?: string;
  usage?: ChatUsage;
}

/** What went wrong with a turn, in words a user can act on. */
export type ChatErrorKind =
  | 'no-api-key'
  | 'auth'
  | 'rate-limit'
  | 'overloaded'
  | 'network'
  | 'context-too-long'
  | 'bad-request'
  | 'server'
  | 'round-cap'
  /** The model refused the tools it was offered (many local models): the user may go on without tools. */
  | 'tools-unsupported'
  /** More tools are offered than the provider accepts and tool search is off: nothing was sent. */
  | 'too-many-tools'
  /** The answer grew past the Answer limit setting (`maxAnswerChars`): it stopped being read. */
  | 'answer-too-long'
  | 'internal';

export interface ChatError {
  kind: ChatErrorKind;
  message: string;
  /** Whether Retry makes sense (the same request may succeed later). */
  retryable: boolean;
  at: string;
}

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
