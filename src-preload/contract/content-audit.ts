import { z } from 'zod';
import { method } from './method';

/**
 * The audit trail of what the user took from servers: every resource read (Resources tab, template,
 * a link in a result, a re-read after an update), every attachment and prompt use in the chat, every
 * subscription. Nothing reaches the model that is not in here as the user's own action.
 */

export const CONTENT_ACTIONS = [
  'read',
  'template',
  'link',
  'update',
  'attach',
  'prompt-preview',
  'prompt-chat',
  'subscribe',
  'unsubscribe',
] as const;
export type ContentAction = (typeof CONTENT_ACTIONS)[number];

export interface ContentAuditEntry {
  seq: number;
  action: ContentAction;
  serverId: string;
  serverName: string;
  /** The URI (reads, attachments, subscriptions) or the prompt's name. */
  target: string;
  /** The prompt's arguments (JSON), or the template a URI was expanded from. */
  detail?: string;
  /** The conversation an attachment or prompt went to (once sent). */
  conversationId?: string;
  outcome: 'ok' | 'error';
  error?: string;
  /** Characters of text taken (reads, attachments, prompts). */
  chars?: number;
  at: string;
}

export interface ContentAuditPage {
  entries: ContentAuditEntry[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: number;
}

const ListContentAuditSchema = z
  .object({ limit: z.number().int().min(1).max(200).default(50), before: z.number().int().positive().optional() })
  .strict();

export const contentAuditMethods = {
  /** The resource and prompt use trail, newest first, in pages. */
  listContentAudit: method<typeof ListContentAuditSchema, ContentAuditPage>(ListContentAuditSchema),
};

export interface ContentAuditEvents {
  /** Something was added to the trail (lists showing it fetch their newest page again). */
  contentAudited: { seq: number };
}
