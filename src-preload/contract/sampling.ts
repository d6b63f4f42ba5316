import { z } from 'zod';
import { IdString, method, NoInput } from './method';
import type { JsonObject } from './tools';

/**
 * Sampling (`sampling/createMessage`) and elicitation (`elicitation/create`): a server asks the host
 * for a model answer or asks the user for information. The requests live in the core; the renderer
 * sees them and answers them, one dialog at a time, as questions of the one queue (questions.ts).
 */

/** One content block of a sampling message, as the dialog shows it. */
export type SamplingContentView =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  /** A block kind the host does not send to the model (shown, never silently dropped). */
  | { type: 'other'; summary: string };

export interface SamplingMessageView {
  role: 'user' | 'assistant';
  content: SamplingContentView[];
}

/** The tool call a request arrived during (the server asks while that call runs). */
export interface NestedToolCall {
  callId: string;
  tool: string;
}

export type SamplingStage = 'request' | 'generating' | 'review';

export interface SamplingResponseView {
  text: string;
  model: string;
  stopReason: string | null;
  usage: { inputTokens: number; outputTokens: number };
}

/** A model the sampling dialog offers: provider › model. */
export interface SamplingModelOption {
  providerId: string;
  providerName: string;
  id: string;
  displayName: string;
}

/** A sampling request waiting for the user (or being generated). Plain data; the core keeps the promise. */
export interface SamplingRequestView {
  id: string;
  serverId: string;
  serverName: string;
  toolCall?: NestedToolCall;
  messages: SamplingMessageView[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: JsonObject;
  /** Models the user can choose from (every provider's), and the preselected one with why. */
  models: SamplingModelOption[];
  model: string;
  /** The provider of `model`. */
  providerId: string;
  modelReason: string;
  stage: SamplingStage;
  /** The request was approved by the server's policy (the response is still reviewed). */
  autoApproved: boolean;
  response?: SamplingResponseView;
  /** Generation failed: the user may retry (Approve again) or Reject. */
  error?: string;
  requestedAt: string;
}

export type ElicitationFieldSchema = JsonObject;

/** An elicitation waiting for the user. */
export interface ElicitationRequestView {
  id: string;
  serverId: string;
  serverName: string;
  toolCall?: NestedToolCall;
  mode: 'form' | 'url';
  message: string;
  /** Form mode: the flat object schema of what is asked. */
  requestedSchema?: { properties: Record<string, ElicitationFieldSchema>; required?: string[] };
  /** URL mode: the full URL and its host. */
  url?: string;
  urlHost?: string;
  requestedAt: string;
}

export type SamplingPolicyMode = 'ask' | 'auto' | 'block';

export interface SamplingPolicy {
  serverId: string;
  mode: SamplingPolicyMode;
  /** Requests per minute; absent: unlimited. */
  ratePerMinute?: number;
  /** Requests asking more tokens are refused; absent: no cap. */
  maxTokensCap?: number;
}

export type InteractionOutcome =
  'sent' | 'accepted' | 'declined' | 'cancelled' | 'rejected' | 'blocked' | 'withdrawn' | 'failed' | 'shutdown';

/** Who decided a step: the user, the server's sampling policy, or Patchbay itself. */
export type InteractionDecider = 'user' | 'policy' | 'host';

/**
 * One step of a sampling request, recorded as it happened: at the request step (before anything is
 * generated) it is approved, rejected, blocked by the policy, or withdrawn; generating may fail (the
 * request step comes back); at the response step the answer is sent or rejected. Quitting ends either.
 */
export interface InteractionStep {
  stage: 'request' | 'response';
  action: 'approved' | 'rejected' | 'sent' | 'blocked' | 'withdrawn' | 'failed' | 'shutdown';
  by: InteractionDecider;
  at: string;
  /** What else happened there ("prompt edited", the generation error…). */
  note?: string;
}

/** One sampling/elicitation decision in the audit trail (redacted). */
export interface InteractionAuditEntry {
  seq: number;
  kind: 'sampling' | 'elicitation';
  serverId: string;
  serverName: string;
  toolCall?: string;
  /** Who made the decision that ended it. */
  decidedBy: InteractionDecider;
  outcome: InteractionOutcome;
  /** Sampling: every step, in order (absent on elicitations and on entries older than steps). */
  steps?: InteractionStep[];
  /** Redacted JSON of what was asked (sampling: `asked`, and `approved` only once a step approved it). */
  request: string;
  /** Redacted JSON of what was sent back (absent on errors). */
  response?: string;
  note?: string;
  requestedAt: string;
  decidedAt: string;
}

/** One page of the sampling/elicitation audit trail, newest first. */
export interface InteractionAuditPage {
  entries: InteractionAuditEntry[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: number;
}

export interface SamplingSnapshot {
  policies: SamplingPolicy[];
}

const SetSamplingPolicySchema = z
  .object({
    serverId: IdString,
    mode: z.enum(['ask', 'auto', 'block']),
    ratePerMinute: z.number().int().min(1).max(10_000).optional(),
    maxTokensCap: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();
const ListInteractionAuditSchema = z
  .object({
    /** Only entries older than this `seq` (the previous page's `nextBefore`). */
    before: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export const samplingMethods = {
  listSamplingPolicies: method<typeof NoInput, SamplingPolicy[]>(NoInput),
  setSamplingPolicy: method<typeof SetSamplingPolicySchema, SamplingPolicy[]>(SetSamplingPolicySchema),
  /** The sampling/elicitation audit trail, newest first, in pages (like `listToolAudit`). */
  listInteractionAudit: method<typeof ListInteractionAuditSchema, InteractionAuditPage>(ListInteractionAuditSchema),
};

export interface SamplingEvents {
  /**
   * A sampling or elicitation request is over, and audited: answered, withdrawn, or refused at once
   * (`blocked`: it was never pending). `note` tells the user why when it was withdrawn.
   */
  interactionSettled: { id: string; kind: 'sampling' | 'elicitation'; outcome: InteractionOutcome; note?: string };
  samplingPoliciesChanged: SamplingPolicy[];
}

/** A value an elicitation form may send back. */
export type ElicitationValue = string | number | boolean | string[];
export type ElicitationContent = Record<string, ElicitationValue>;
