import { z } from 'zod';
import { IdString, method } from './method';
import type { Truncation } from './tools';

/**
 * Prompts: the templates servers offer (`prompts/list`), filled in and fetched (`prompts/get`) so the
 * user sees the resulting messages before anything is used. A prompt fetched for the chat is held in
 * the host under its `useId` until the message that uses it is sent.
 */

export interface PromptArgumentView {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

export interface PromptView {
  serverId: string;
  serverName: string;
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgumentView[];
}

export interface PromptList {
  prompts: PromptView[];
  /** Why a server's list is incomplete or missing, one sentence each. */
  notes: string[];
}

/** One content block of a prompt message, capped for display. */
export type PromptContentView =
  | { type: 'text'; text: string; truncated?: Truncation }
  /** `data` (base64) only when small enough to show inline. */
  | { type: 'image' | 'audio'; mimeType: string; bytes: number; data?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; truncated?: Truncation; blobBytes?: number }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  | { type: 'other'; json: string };

export interface PromptMessageView {
  role: 'user' | 'assistant';
  content: PromptContentView;
}

/** A fetched prompt, as the user reviews it. */
export interface PromptResultView {
  /** Names the full result held in the host: send it with a chat message to use it. */
  useId: string;
  serverId: string;
  serverName: string;
  name: string;
  arguments: Record<string, string>;
  description?: string;
  messages: PromptMessageView[];
  /** Characters of text (and embedded text resources) in the whole result: what it costs the message budget. */
  chars: number;
}

/** Why a prompt is fetched: to look at it (Prompts tab) or to use it in a chat message (`/`). */
export const PROMPT_PURPOSES = ['preview', 'chat'] as const;
export type PromptPurpose = (typeof PROMPT_PURPOSES)[number];

export const PromptArgumentsSchema = z
  .record(z.string().max(200), z.string().max(100_000))
  .refine((args) => Object.keys(args).length <= 100, {
    message: 'At most 100 arguments',
  });

const ListPromptsSchema = z.object({ serverIds: z.array(IdString).min(1).max(500) }).strict();
const GetPromptSchema = z
  .object({
    serverId: IdString,
    name: z.string().min(1).max(500),
    arguments: PromptArgumentsSchema.default({}),
    purpose: z.enum(PROMPT_PURPOSES).default('preview'),
  })
  .strict();

export const promptMethods = {
  /** The prompts of these servers, from the host's copy of their lists. */
  listPrompts: method<typeof ListPromptsSchema, PromptList>(ListPromptsSchema),
  /** Fetches a prompt with these arguments (the user's action, audited); missing required ones come back as field errors. */
  getPrompt: method<typeof GetPromptSchema, PromptResultView>(GetPromptSchema),
};
