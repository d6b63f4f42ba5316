import { z } from 'zod';
import { IdString, method, NoInput } from './method';
import type { JsonObject, ToolHints } from './tools';
import type { ToolCallIdentity } from './tool-call-origin';

/**
 * Consent for model-initiated tool calls. The requests live in the core's broker: the renderer can
 * only see them and answer them (`answerQuestion`, see questions.ts), never create one or run a tool as the model.
 * Standing decisions ("always allow", "trust this server") are pinned to the tool's definition.
 */

/** One line of a definition diff. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Why the broker asks. */
export type ConsentReason =
  /** No standing decision covers this tool. */
  | 'ask'
  /** A standing decision exists but the tool's definition changed since: it is suspended. */
  | 'changed';

/** A model-initiated tool call waiting for the user. Plain data; the core keeps the promise. */
export interface ConsentRequestView {
  id: string;
  serverId: string;
  serverName: string;
  tool: string;
  title?: string;
  description?: string;
  /** Hints from the server (untrusted). */
  annotations?: ToolHints;
  inputSchema: JsonObject;
  args: JsonObject;
  reason: ConsentReason;
  /** Who asks: the model (absent) or the app of this server (MCP Apps). */
  origin?: 'model' | 'app';
  /** For `changed`: the approved definition against the current one. */
  diff?: DiffLine[];
  /** The rule that asks (in words; an organisation's starts "Set by your organisation"): standing decisions do not apply. */
  rule?: string;
  /** Why "Always allow" is set aside for this call (the three-way risk), in one sentence. */
  risk?: string;
  requestedAt: string;
  /** When it counts as denied if nobody answers. */
  expiresAt: string;
}

export type ConsentOutcome = 'allowed' | 'denied' | 'timed_out' | 'withdrawn' | 'shutdown';

/** A standing decision, as Settings lists it (each with Revoke). */
export interface StandingDecision {
  /** `tool:<serverId>:<tool>` or `server:<serverId>`. */
  id: string;
  kind: 'tool' | 'server';
  serverId: string;
  serverName: string;
  tool?: string;
  /** `trust` for a server: all its tools (as defined when trusted). */
  decision: 'allow' | 'deny' | 'ask' | 'trust';
  /** `suspended`: the running server's tool no longer matches the approved definition. */
  state: 'active' | 'suspended';
  since: string;
}

/** Who let a call through, or stopped it. */
export type AuditDecider = 'user' | 'policy' | 'timeout' | 'host';
export type AuditOutcome = 'running' | 'ok' | 'tool_error' | 'protocol_error' | 'cancelled' | 'denied' | 'interrupted';

/** One tool call in the audit trail (secrets redacted). */
export interface AuditEntry extends ToolCallIdentity {
  seq: number;
  decidedBy: AuditDecider;
  decision: 'allowed' | 'denied';
  decisionNote?: string;
  definitionHash?: string;
  argsDigest: string;
  /** Redacted JSON of the arguments as sent. */
  args: string;
  requestedAt: string;
  finishedAt?: string;
  durationMs?: number;
  outcome: AuditOutcome;
  outcomeNote?: string;
  resultBytes?: number;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: number;
}

export interface ConsentSettings {
  /** An unanswered request is denied after this many minutes. */
  timeoutMinutes: number;
}

/** What the renderer needs at (re)connect. */
export interface ConsentSnapshot {
  decisions: StandingDecision[];
  settings: ConsentSettings;
}

export const CONSENT_DECISIONS = ['allow_once', 'always_allow', 'deny'] as const;
export type ConsentDecision = (typeof CONSENT_DECISIONS)[number];

const SetToolPolicySchema = z
  .object({ serverId: IdString, tool: z.string().min(1).max(500), policy: z.enum(['allow', 'deny', 'ask', 'default']) })
  .strict();
const SetServerTrustSchema = z
  .object({
    serverId: IdString,
    trusted: z.boolean(),
    /**
     * The tools the user confirmed after being told their hints (see `riskyHintsOf`): trusting a server
     * whose tools say they are destructive or reach outside systems is refused unless every one is named.
     */
    confirmedTools: z.array(z.string().min(1).max(500)).max(10_000).optional(),
  })
  .strict();
const DecisionIdSchema = z.object({ id: z.string().min(1).max(700) }).strict();
const ListAuditSchema = z
  .object({
    serverId: IdString.optional(),
    before: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();
const ConsentSettingsSchema = z.object({ timeoutMinutes: z.number().int().min(1).max(1440) }).strict();

export const consentMethods = {
  listStandingDecisions: method<typeof NoInput, StandingDecision[]>(NoInput),
  /** Per tool: `allow` pins the tool's current definition; `default` removes the tool's own decision. */
  setToolPolicy: method<typeof SetToolPolicySchema, StandingDecision[]>(SetToolPolicySchema),
  /**
   * "Trust all tools of this server" (pinned to their current definitions), or stop trusting it. Tools
   * hinted destructive or open-world must be listed in `confirmedTools` (the user saw them named).
   */
  setServerTrust: method<typeof SetServerTrustSchema, StandingDecision[]>(SetServerTrustSchema),
  /** Removes one standing decision; the next call of that tool asks again. */
  revokeDecision: method<typeof DecisionIdSchema, StandingDecision[]>(DecisionIdSchema),
  /** The tool-call audit trail, newest first, in pages. */
  listToolAudit: method<typeof ListAuditSchema, AuditPage>(ListAuditSchema),
  updateConsentSettings: method<typeof ConsentSettingsSchema, ConsentSettings>(ConsentSettingsSchema),
};

export interface ConsentEvents {
  standingDecisionsChanged: StandingDecision[];
  consentSettingsChanged: ConsentSettings;
}
