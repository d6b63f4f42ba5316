import type { ContentFlag, FlagDecision } from './content-flags';
import type { ToolRunStatus } from './tools';

/**
 * What a conversation is made of: its messages, their content blocks (text, tool calls and results,
 * tool searches) and how a turn failed. Stored in SQLite in this shape and sent to the renderer as it is.
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
  /** Each with its server's name (shown beside it) and, for a stuffed description, what the scanner saw. */
  found: (Pick<ChatToolRef, 'serverId' | 'toolName'> & Partial<Pick<ChatToolRef, 'serverName'>> & { name: string; flagged?: string })[];
}

/**
 * What one `load_skill` call loaded (stored with its result, so the chat shows "Loaded skill: NAME"
 * after a reload too): the skill's name, the file (`SKILL.md` for the skill itself) and where it came from.
 */
export interface SkillLoadRecord {
  /** The skill's key (`SkillInfo.key`). */
  key: string;
  name: string;
  file: string;
  /** The server's name in Patchbay, absent for the local skills folder. */
  serverName?: string;
}

/**
 * Which tool of which server a chat call is: the server's id and name and the tool's own name on it
 * (what the tool_use block, a tool search's finds and the model's tool names carry).
 */
export interface ChatToolRef {
  serverId: string;
  serverName: string;
  /** The tool's own name on its server. */
  toolName: string;
}

/** A tool call the model made, as stored (and as the chat's tool card reads it). */
export interface ToolUseBlock extends ChatToolRef {
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
}

/** A tool call's result, as stored (the model's copy is made from it; the card shows it whole). */
export interface ToolResultBlock {
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
  /** The host's `load_skill` answered this call and loaded this (absent when it refused: the text says why). */
  skillLoad?: SkillLoadRecord;
  /** Where the result came from, as the model is told (server and tool; absent on results stored before). */
  source?: Pick<ChatToolRef, 'serverName' | 'toolName'>;
  /** What the content scanner flagged in the result (shown on the card with the matched text). */
  flags?: ContentFlag[];
  /** Flagged: whether the model got it (warned or let through) or it was withheld (blocked or refused). */
  flagDecision?: FlagDecision;
  /** Parts the server marked for the user only (`annotations.audience`): shown, never sent (indexes into `content`). */
  userOnly?: number[];
  /** Parts marked for the model only: sent, folded on the card (indexes into `content`). */
  assistantOnly?: number[];
}

/** A content block of a stored message (our format, close to the Messages API's). */
export type ChatBlock =
  | { type: 'text'; text: string }
  /** Base64 image data. */
  | { type: 'image'; mediaType: string; data: string }
  | ToolUseBlock
  | ToolResultBlock
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
      /** What the content scanner flagged in it (the model gets it with a note to treat it as data). */
      flags?: ContentFlag[];
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
      /** What the content scanner flagged in the prompt's messages (on its first part; the model is told to treat them as data). */
      flags?: ContentFlag[];
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
