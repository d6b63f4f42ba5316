import { z } from 'zod';
import type { ContentFlag } from './content-flags';
import { IdString, method } from './method';
import { MAX_ATTACHMENTS, MAX_MESSAGE_CHARS } from './chat';

/**
 * What a chat request carries, in tokens (the context meter beside the message box), and what each
 * server adds to it: its tools' definitions and its instructions. Counted in the host with one
 * tokenizer for every provider (o200k_base), so every number is approximate: the UI says "≈".
 */

/** The tool definitions of one server in the next request. */
export interface ServerToolTokens {
  serverId: string;
  serverName: string;
  tools: number;
  tokens: number;
  /** Tokens of this server's instructions in the next request (instructions several servers share count once, at the first). */
  instructionTokens?: number;
}

export interface ContextMeasure {
  /** Everything below added up. */
  total: number;
  /** The tool definitions offered (every server's). */
  tools: number;
  toolCount: number;
  /** The system prompt: Settings' own and the servers' instructions. */
  system: number;
  /** What the draft carries besides its text: attached resources and a chosen prompt. */
  attachments: number;
  /** The conversation so far, with the draft's text. */
  history: number;
  /** Tool tokens by server, most first. */
  servers: ServerToolTokens[];
  /**
   * Tool search is on for this request: the tools it keeps back (not in the request; the model finds
   * them with the search tool), in all and by server. Absent when every offered tool is sent.
   */
  heldBack?: { tools: number; tokens: number; servers: ServerToolTokens[] };
  /**
   * Skills offered to the model: how many, and the tokens of the `load_skill` tool that names them and
   * their descriptions (in every request; not in `tools`). Loading one adds its `SKILL.md`
   * (`SkillInfo.loadTokens`). Absent when no skill is offered.
   */
  skills?: { offered: number; tokens: number };
}

/** What a server adds to chat requests, for its Overview. */
export interface ServerContextView {
  serverId: string;
  /** The instructions the server gave (initialize or `server/discover`); absent when it gave none or is not Ready. */
  instructions?: string;
  /** Whether they go into the system prompt of chats that offer this server's tools (the user's switch; off for a new server). */
  sendInstructions: boolean;
  /** What the content scanner flagged in the instructions (shown beside the switch). */
  instructionFlags?: ContentFlag[];
  /** Characters of the instructions sent at most (the rest is cut, and the model is told). */
  instructionsLimit: number;
  /** Tools of this server offered to the model, and their definitions' tokens. */
  tools: number;
  toolTokens: number;
}

const MeasureSchema = z
  .object({
    /** Absent before the draft has a conversation: every Ready server's tools, no history. */
    conversationId: IdString.optional(),
    /** Length of the draft's text (counted at about four characters a token). */
    draftChars: z.number().int().min(0).max(MAX_MESSAGE_CHARS).default(0),
    /** Attachments held for the draft (`attachResource`). */
    attachmentIds: z.array(IdString).max(MAX_ATTACHMENTS).default([]),
    /** A prompt chosen for the draft (`getPrompt({ purpose: 'chat' })`). */
    promptUseId: IdString.optional(),
  })
  .strict();
const ServerContextSchema = z.object({ serverId: IdString }).strict();
const SetInstructionsSchema = z.object({ serverId: IdString, send: z.boolean() }).strict();

export const contextMethods = {
  /** What the next request of this conversation (with this draft) carries, in tokens (approximate). */
  measureContext: method<typeof MeasureSchema, ContextMeasure>(MeasureSchema),
  /** A server's instructions, whether they are sent, and its tools' token cost. */
  getServerContext: method<typeof ServerContextSchema, ServerContextView>(ServerContextSchema),
  /** Lets a server's instructions go to the model, or keeps them out (persisted). */
  setServerInstructions: method<typeof SetInstructionsSchema, ServerContextView>(SetInstructionsSchema),
};

/** A token count as the meter shows it: "850", "4.1k", "12.4k", "128k", "1.2M" (always approximate: callers add "≈"). */
export function formatTokens(tokens: number): string {
  if (tokens < 1_000) return String(tokens);
  if (tokens < 100_000) return `${trim((tokens / 1_000).toFixed(1))}k`;
  if (tokens < 999_500) return `${Math.round(tokens / 1_000)}k`;
  return `${trim((tokens / 1_000_000).toFixed(1))}M`;
}

function trim(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}
