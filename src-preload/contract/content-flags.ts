/**
 * What the content scanner flags in what servers send (tool results, resources, prompt messages,
 * descriptions, instructions) and what the user chose to do with flagged content. Shared by the host,
 * which scans, and the window, which shows the flag on the tool card with the matched text.
 */

/** Text aimed at the model, hidden characters, a way for data to leave, a credential, a stuffed description. */
export type ContentFlagKind = 'instruction' | 'hidden-unicode' | 'exfiltration' | 'credential' | 'stuffing' | 'classifier';

/** One finding: its kind, the rule that matched (`ignore-instructions`, …) and the text it matched. */
export interface ContentFlag {
  kind: ContentFlagKind;
  rule: string;
  match: string;
  /** How it was found when not plainly (e.g. "in Base64", "with homoglyphs folded"). */
  note?: string;
}

/** Setting **Flagged content**: ask before the model sees it (default), warn only, or block. */
export const FLAGGED_CONTENT_MODES = ['ask', 'warn', 'block'] as const;
export type FlaggedContentMode = (typeof FLAGGED_CONTENT_MODES)[number];
export const FLAGGED_CONTENT_LABELS: Record<FlaggedContentMode, string> = {
  ask: 'Ask before the model sees it',
  warn: 'Warn only',
  block: 'Block',
};

/** What happened to flagged content: sent (warned, or the user let it through) or withheld from the model. */
export type FlagDecision = 'sent' | 'withheld';

/**
 * A question in the one queue (kind `content`): a tool result (or a resource being attached, a prompt
 * being used) was flagged and Flagged content is "Ask before the model sees it"; the turn waits. Send:
 * the model gets it with a note; Withhold: a note instead (a resource is not attached, a prompt not used).
 */
export interface FlaggedContentRequest {
  id: string;
  serverId: string;
  serverName: string;
  /** The tool whose result this is; for a resource or a prompt, its name. */
  toolName: string;
  /** What was flagged: a tool's result (absent), a resource being attached, a prompt's messages. */
  source?: 'resource' | 'prompt';
  /** The conversation it is for (unknown while a resource is attached to a draft). */
  conversationId?: string;
  flags: ContentFlag[];
  /** The start of the flagged text, as the model would read it. */
  preview: string;
  requestedAt: string;
  expiresAt?: string;
}

/** How a flagged-content question ended. */
export type FlaggedContentOutcome = FlagDecision;
